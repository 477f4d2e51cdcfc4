"""Record PyTorch's float32 `exp`, `tanh`, `asin`, `acos`, `log` (MKL's vmsExp... in VML_HA) for
tests/ops/test_mkl32_vml.py: run with torch 2.13 CPU, one thread,
/work/torchenv/bin/python tests/ops/data/record_mkl32_vml.py.

Candidates are drawn by NumPy from a seed over each function's whole range (normals of three
scales, wide uniforms, magnitudes from subnormal to huge, random bit patterns, the edges of
overflow and underflow); kept are the first 750 where PyTorch's result is not the float64
value rounded once (the inputs a rounded kernel gets wrong) and the first 300 of the others.
Inputs and results are stored as float32 bit patterns (base64 of little-endian uint32), with
a small shaped case's result and gradient."""

import base64
import json
from pathlib import Path

import numpy as np
import torch

torch.set_num_threads(1)

OPS = {"exp": np.exp, "tanh": np.tanh, "asin": np.arcsin, "acos": np.arccos, "log": np.log}
EDGES = {
    "exp": [88.72283, 88.722839, 87.33654, 87.336548, -87.33654, -87.336548, -103.972084, -104.0],
    "tanh": [0.046875, 0.0546875, 0.0625, 9.0, 9.01, 15.999999, 16.0, 1e-30],
    "asin": [0.5, 0.49999997, 0.99999994, 1.0, 1e-30, 2.0, 0.25, 0.75],
    "acos": [0.5, 0.49999997, 0.99999994, 1.0, 1e-30, 2.0, 0.25, 0.75],
    "log": [1.0, 0.99999994, 2.0, 0.5, 1.1754944e-38, 8.507059e37, 3.4028235e38, 1e-45],
}


def candidates(op: str) -> np.ndarray:
    rng = np.random.default_rng([2026, len(op)])
    n = 60000
    if op in ("asin", "acos"):  # [-1, 1], near 1/2 and near 1, tiny
        parts = [
            rng.uniform(-1, 1, n),
            rng.uniform(0.45, 0.55, n) * rng.choice([-1, 1], n),
            (1 - np.exp(rng.uniform(-17, -1, n))) * rng.choice([-1, 1], n),
            np.exp(rng.uniform(-105, -1, n // 4)) * rng.choice([-1, 1], n // 4),
        ]
    elif op == "log":  # (0, 2), every magnitude, near 1
        parts = [
            rng.uniform(0, 2, n),
            np.exp(rng.uniform(-103, 88, n)),
            1 + rng.uniform(-0.02, 0.02, n),
        ]
    else:
        parts = [
            rng.standard_normal(n) * rng.choice([0.05, 1.0, 4.0], n),
            rng.uniform(-110, 110, n) if op == "exp" else rng.uniform(-20, 20, n),
            np.exp(rng.uniform(-105, 5, n)) * rng.choice([-1, 1], n),
        ]
    x = np.concatenate([p.astype(np.float32) for p in parts])
    pattern = rng.integers(0, 2**32, n // 4, dtype=np.uint64).astype(np.uint32).view(np.float32)
    edges = np.array(EDGES[op], np.float32)
    near = np.concatenate([np.nextafter(edges, np.float32(np.inf)), edges, -edges])
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 3e38], np.float32)
    return np.concatenate([special, near, x, pattern])


def b64(a: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(a, np.float32).view("<u4").tobytes()).decode()


out = {}
for op, f64 in OPS.items():
    x = candidates(op)
    y = getattr(torch, op)(torch.tensor(x)).numpy()
    with np.errstate(all="ignore"):
        rounded = f64(x.astype(np.float64)).astype(np.float32)
    differ = (y.view(np.uint32) != rounded.view(np.uint32)) & ~(np.isnan(y) & np.isnan(rounded))
    keep = np.concatenate([np.arange(50), 50 + np.flatnonzero(differ[50:])[:750]])
    keep = np.unique(np.concatenate([keep, 50 + np.flatnonzero(~differ[50:])[:300]]))
    rng = np.random.default_rng([7, len(op)])
    xs = (rng.standard_normal((3, 67)) * 2).astype(np.float32)
    if op in ("asin", "acos"):
        xs = np.tanh(xs)
    elif op == "log":
        xs = np.abs(xs)
    g = rng.standard_normal((3, 67)).astype(np.float32)
    leaf = torch.tensor(xs, requires_grad=True)
    ys = getattr(torch, op)(leaf)
    ys.backward(torch.tensor(g))
    out[op] = {
        "x": b64(x[keep]),
        "y": b64(y[keep]),
        "differ_from_rounded": int(differ[keep].sum()),
        "shaped": {"y": b64(ys.detach().numpy()), "grad": b64(leaf.grad.numpy())},
    }
    print(op, len(keep), "kept,", int(differ[keep].sum()), "not the rounded float64 value")

path = Path(__file__).parent / "mkl32_vml.json"
path.write_text(json.dumps(out, indent=1) + "\n")
