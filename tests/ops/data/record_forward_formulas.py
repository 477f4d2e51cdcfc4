"""Record PyTorch's forward-mode tangents of the ops whose forward formula is not the sum of
their backward's gradients (div, maximum, minimum, atan2; softmax and log_softmax), for
tests/ops/test_forward_formulas.py (run with torch 2.13 CPU, one thread:
/work/torchenv/bin/python tests/ops/data/record_forward_formulas.py). Each case gives a
tangent to both inputs, to the first only or to the second only (PyTorch leaves the missing
one out of its formula as a zero tensor). Inputs are NumPy's, drawn from seeds, with ties,
NaNs, zeros and tiny values mixed in; results are stored as the hex of their bytes."""

import json
from pathlib import Path

import numpy as np
import torch
import torch.autograd.forward_ad as fwAD

torch.set_num_threads(1)

OPS = {"div": torch.div, "maximum": torch.maximum, "minimum": torch.minimum, "atan2": torch.atan2}
WHICH = ("both", "first", "second")


def inputs(seed: int, dtype: str) -> tuple:
    rng = np.random.default_rng([seed, 29])
    x, y, dx, dy = (rng.standard_normal(12).astype(dtype) for _ in range(4))
    x[:3] = y[:3]  # ties
    x[3], y[4], x[5], y[5] = np.nan, np.nan, 0.0, 0.0  # NaNs, the origin
    x[6], y[6] = 2e-3, 2e-3  # small: subnormal squares in float16
    y[7] = -y[7] * 1e-3
    return x, y, dx, dy


def hexa(t: torch.Tensor) -> str:
    return np.ascontiguousarray(t.numpy()).tobytes().hex()


cases = []
for name, fn in OPS.items():
    for dtype in ("float32", "float64", "float16"):
        for seed in range(2):
            x, y, dx, dy = inputs(seed, dtype)
            for which in WHICH:
                with fwAD.dual_level():
                    a = torch.tensor(x)
                    b = torch.tensor(y)
                    if which != "second":
                        a = fwAD.make_dual(a, torch.tensor(dx))
                    if which != "first":
                        b = fwAD.make_dual(b, torch.tensor(dy))
                    t = fwAD.unpack_dual(fn(a, b)).tangent
                cases.append(
                    {"op": name, "dtype": dtype, "seed": seed, "which": which, "tangent": hexa(t)}
                )
# (float64 softmax only with the avx2 family's float64 exp emulated: its value differs today)
for name, fn in {"softmax": torch.softmax, "log_softmax": torch.log_softmax}.items():
    for dtype in ("float32", "float64") if name == "log_softmax" else ("float32",):
        for seed in range(2):
            rng = np.random.default_rng([seed, 31])
            x, dx = (rng.standard_normal((3, 5)).astype(dtype) * 3 for _ in range(2))
            for dim in (0, 1):
                with fwAD.dual_level():
                    a = fwAD.make_dual(torch.tensor(x), torch.tensor(dx))
                    t = fwAD.unpack_dual(fn(a, dim)).tangent
                cases.append(
                    {"op": name, "dtype": dtype, "seed": seed, "which": dim, "tangent": hexa(t)}
                )
(Path(__file__).parent / "forward_formulas.json").write_text(json.dumps(cases, indent=1) + "\n")
