"""Records tests/ops/data/reduced_softmax.json: the sha256 of PyTorch 2.13's float16 and
bfloat16 softmax and log_softmax (values, and the gradients for a random upstream gradient) on an
AVX2 machine without AVX-512 (gradcli's avx2 kernel family), over the last dimension and others,
rows shorter and longer than a vector, columns with and without a scalar tail.

    OMP_NUM_THREADS=1 /work/torchenv/bin/python tests/ops/data/record_reduced_softmax.py
"""

import hashlib
import json
from pathlib import Path

import numpy as np
import torch

SHAPES = [
    ((5, 7), 1),
    ((6, 8), 1),
    ((9, 13), 1),
    ((4, 37), 1),
    ((3, 100), 1),
    ((2, 3, 21), 2),
    ((30, 5), 0),
    ((7, 19), 0),
    ((12, 40), 0),
    ((3, 17, 33), 1),
    ((6, 4, 2), 0),
]


def draw(shape: tuple, seed: int, scale: float) -> np.ndarray:
    return np.random.default_rng([*shape, seed]).standard_normal(shape) * scale


def sha(t: torch.Tensor) -> str:
    return hashlib.sha256(t.float().numpy().tobytes()).hexdigest()


def main() -> None:
    cases = []
    for name, dtype in (("float16", torch.float16), ("bfloat16", torch.bfloat16)):
        for log in (False, True):
            for shape, dim in SHAPES:
                for scale in (0.5, 6.0):
                    x = torch.tensor(draw(shape, 1, scale), dtype=dtype, requires_grad=True)
                    g = torch.tensor(draw(shape, 2, 1.0), dtype=dtype)
                    y = torch.log_softmax(x, dim) if log else torch.softmax(x, dim)
                    y.backward(g)
                    cases.append(
                        {
                            "dtype": name,
                            "log": log,
                            "shape": list(shape),
                            "dim": dim,
                            "scale": scale,
                            "y": sha(y.detach()),
                            "gx": sha(x.grad),
                        }
                    )
    out = Path(__file__).with_name("reduced_softmax.json")
    out.write_text(json.dumps({"torch": torch.__version__, "cases": cases}) + "\n")


if __name__ == "__main__":
    main()
