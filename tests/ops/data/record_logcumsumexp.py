"""Record PyTorch's float32 logcumsumexp input gradients (signed upstream gradients, some
zeros) for tests/ops/test_logcumsumexp_grad.py (torch 2.13 CPU, one thread, on an AVX2
machine: the avx2 kernel family's exp and log; /work/torchenv/bin/python
tests/ops/data/record_logcumsumexp.py). Inputs are NumPy's, drawn from seeds; results are
stored as float32 bit patterns."""

import json
from pathlib import Path

import numpy as np
import torch

torch.set_num_threads(1)

CASES = [((3, 40), 1), ((20, 3), 0), ((37,), 0)]


def draw(shape: tuple, seed: int) -> np.ndarray:
    rng = np.random.default_rng([*shape, seed])
    v = rng.standard_normal(shape) * 2
    return np.where(rng.random(shape) < 0.1, 0.0, v).astype(np.float32) if seed == 2 else v


def main() -> None:
    out = {}
    for shape, dim in CASES:
        x = torch.tensor(draw(shape, 1).astype(np.float32), requires_grad=True)
        g = torch.tensor(draw(shape, 2))
        torch.logcumsumexp(x, dim).backward(g)
        out[f"{shape}/{dim}"] = [int(b) for b in x.grad.numpy().reshape(-1).view(np.uint32)]
    path = Path(__file__).parent / "logcumsumexp_bits.json"
    path.write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
