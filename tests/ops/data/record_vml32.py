"""Record PyTorch's float32 results and gradients of the unary functions whose kernels gradcli
reproduces bit for bit (sin, cos: MKL's VML as measured, `gradcli.core.mkl32`; log1p, expm1,
sinh, cosh, atanh, exp2: SLEEF's vector functions, `gradcli.core.sleef32`; asinh, acosh: the
C library's) for tests/ops/test_vml32_order.py (run with torch 2.13 CPU, one thread:
/work/torchenv/bin/python tests/ops/data/record_vml32.py). The inputs are NumPy's, drawn from
seeds, so the test rebuilds them without torch; results are stored as float32 bit patterns,
and for 10**6 inputs an op as SHA-256 digests of the bits of each block of 4096 elements, with
the number of elements where PyTorch differs from the float64 result rounded once."""

import hashlib
import json
from pathlib import Path

import numpy as np
import torch

torch.set_num_threads(1)


def draw(op: str, shape: list[int], seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Inputs over each function's interesting range, and an upstream gradient."""
    rng = np.random.default_rng([*shape, seed, len(op)])
    n = int(np.prod(shape))
    z = rng.standard_normal(n) * rng.choice([0.5, 3.0, 12.0], n)
    far = rng.random(n) < 0.05
    if op in ("sin", "cos"):
        x = np.where(far, rng.uniform(-10000, 10000, n), z)
    elif op in ("sinh", "cosh", "expm1"):
        x = np.where(far, rng.uniform(-95, 95, n), z)
    elif op == "exp2":
        x = np.where(far, rng.uniform(-160, 140, n), z * 4)
    elif op == "log1p":
        x = np.where(far, rng.uniform(-1, 1e6, n), np.abs(z) - 0.9)
    elif op == "atanh":
        x = np.tanh(z / 3)
    elif op == "acosh":
        x = 1 + np.abs(z)
    else:  # asinh
        x = np.where(far, rng.uniform(-1e5, 1e5, n), z)
    g = rng.standard_normal(n)
    return x.astype(np.float32).reshape(shape), g.astype(np.float32).reshape(shape)


OPS = ["sin", "cos", "log1p", "expm1", "sinh", "cosh", "atanh", "exp2", "asinh", "acosh"]
SHAPES = [[1], [5], [31], [32], [45], [77], [3, 67], [200]]
BIG = 10**6 + 13  # a whole number of vector steps and a tail
BLOCK = 4096
BIG_OPS = [op for op in OPS if op not in ("asinh", "acosh")]  # those are C library calls


def bits(t: torch.Tensor) -> list[int]:
    return [int(b) for b in t.detach().numpy().reshape(-1).view(np.uint32)]


ROUNDED = {"sin": np.sin, "cos": np.cos, "log1p": np.log1p, "expm1": np.expm1}
ROUNDED |= {"sinh": np.sinh, "cosh": np.cosh, "atanh": np.arctanh, "exp2": np.exp2}

cases = []
for op in OPS:
    for shape in SHAPES:
        x, g = draw(op, shape, 0)
        leaf = torch.tensor(x, requires_grad=True)
        y = getattr(torch, op)(leaf)
        y.backward(torch.tensor(g))
        cases.append({"op": op, "shape": shape, "y": bits(y), "grad": bits(leaf.grad)})

big = []
for op in BIG_OPS:
    x, _ = draw(op, [BIG], 1)
    y = getattr(torch, op)(torch.tensor(x)).numpy()
    with np.errstate(all="ignore"):
        rounded = ROUNDED[op](x.astype(np.float64)).astype(np.float32)
    differ = int(np.count_nonzero((y != rounded) & ~(np.isnan(y) & np.isnan(rounded))))
    blocks = [
        hashlib.sha256(y[i : i + BLOCK].view(np.uint32).tobytes()).hexdigest()[:16]
        for i in range(0, BIG, BLOCK)
    ]
    big.append(
        {"op": op, "n": BIG, "block": BLOCK, "blocks": blocks, "differ_from_rounded": differ}
    )

out = Path(__file__).parent / "vml32_results.json"
data = {"torch": torch.__version__, "cases": cases, "big": big}
out.write_text(json.dumps(data, separators=(",", ":")))
print(f"{len(cases)} cases, {len(big)} digests -> {out}")
for b in big:
    print(b["op"], b["differ_from_rounded"])
