"""Records tests/ops/data/avx2_matrix_exp.json: what PyTorch 2.13 gives for float32
torch.linalg.matrix_exp and its gradient on an AVX2 machine without AVX-512 (gradcli's avx2
kernel family), as bit patterns. One matrix in each of ATen's degree intervals (1-norms 5e-8 to
1.2), degree 18 with and without scaling, an 8 x 8 matrix (MKL's products), a batch of 3, and
9 x 9 and 11 x 11 matrices (whose products' bits depend on where ATen writes them).

    OMP_NUM_THREADS=1 /work/torchenv/bin/python tests/ops/data/record_avx2_matrix_exp.py
"""

import json
from pathlib import Path

import numpy as np
import torch

NORMS = (
    (5e-8, (3, 3)),
    (2e-4, (3, 3)),
    (0.03, (3, 3)),
    (0.4, (3, 3)),
    (1.2, (3, 3)),
    (2.5, (3, 3)),
    (9.0, (3, 3)),
    (3.0, (8, 8)),
    (4.0, (3, 3, 3)),
    (0.5, (9, 9)),
    (1.0, (9, 9)),
    (6.0, (2, 11, 11)),
)


def main() -> None:
    rng = np.random.default_rng(1630)
    cases = []
    for norm, shape in NORMS:
        a = rng.standard_normal(shape)
        a = (a * (norm / np.abs(a).sum(-2).max())).astype(np.float32)
        g = rng.standard_normal(shape).astype(np.float32)
        ta = torch.from_numpy(a).requires_grad_()
        e = torch.linalg.matrix_exp(ta)
        e.backward(torch.from_numpy(g))
        cases.append(
            {
                "norm": norm,
                "shape": list(shape),
                "a": a.tolist(),
                "g": g.tolist(),
                "value_bits": e.detach().numpy().view(np.uint32).ravel().tolist(),
                "grad_bits": ta.grad.numpy().view(np.uint32).ravel().tolist(),
            }
        )
    out = Path(__file__).with_name("avx2_matrix_exp.json")
    out.write_text(json.dumps({"torch": torch.__version__, "cases": cases}) + "\n")


if __name__ == "__main__":
    main()
