"""Forward mode through div, maximum, minimum and atan2 gives PyTorch 2.13's tangents to the
bit (recorded: tests/ops/data/record_forward_formulas.py). Their forward formulas are not the
sum of their backward's gradients: (dx - dy * out) / y for div, dy + w * (dx - dy) for
maximum and minimum (w = 1/2 at a tie, 0 where a value is NaN), (x dy - y dx) / (y^2 + x^2)
for atan2 (nan at the origin, finite where the backward's reciprocal overflows), so they
round otherwise, and a tangent given to one input only leaves the other's term out; softmax's
and log_softmax's go through logsumexp's, sum(exp(x - max) * t) / sum(exp(x - max)). Their
values against float64 central differences are the registry's (tests/ops/test_dual.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import dual
from gradcli.core.op import apply
from gradcli.core.tensor import Tensor
from gradcli.ops import binary, reduction

ALL = json.loads((Path(__file__).parent / "data" / "forward_formulas.json").read_text())
DATA = [c for c in ALL if "softmax" not in c["op"]]
SOFTMAX = [c for c in ALL if "softmax" in c["op"]]
OPS = {"div": binary.div, "maximum": binary.maximum, "minimum": binary.minimum}
OPS["atan2"] = binary.atan2


def _inputs(seed: int, dtype: str) -> tuple:
    # the recording's draws (record_forward_formulas.inputs)
    rng = np.random.default_rng([seed, 29])
    x, y, dx, dy = (rng.standard_normal(12).astype(dtype) for _ in range(4))
    x[:3] = y[:3]
    x[3], y[4], x[5], y[5] = np.nan, np.nan, 0.0, 0.0
    x[6], y[6] = 2e-3, 2e-3
    y[7] = -y[7] * 1e-3
    return x, y, dx, dy


@pytest.mark.parametrize(
    "case", DATA, ids=[f"{c['op']}-{c['dtype']}-{c['seed']}-{c['which']}" for c in DATA]
)
def test_forward_mode_tangents_are_pytorchs(case: dict) -> None:
    x, y, dx, dy = _inputs(case["seed"], case["dtype"])
    a, b = Tensor(x), Tensor(y)
    dual.enter()
    try:
        if case["which"] != "second":
            dual.set_tangent(a, Tensor(dx))
        if case["which"] != "first":
            dual.set_tangent(b, Tensor(dy))
        with np.errstate(all="ignore"):
            out = apply(OPS[case["op"]], a, b)
        t = dual.tangent(out)
    finally:
        dual.leave()
    assert t.dtype == np.dtype(case["dtype"])
    assert np.ascontiguousarray(t.data).tobytes().hex() == case["tangent"]


def test_a_batched_tangent_broadcasts_like_its_input() -> None:
    # a tangent with a leading batch axis, of an input broadcast against the other (vmap over
    # jvp, jacfwd): each batch element's tangent is the unbatched one's
    rng = np.random.default_rng(3)
    x = rng.standard_normal(3)
    y = rng.standard_normal((2, 3))
    dxs = rng.standard_normal((4, 3))
    for op in OPS.values():
        out = apply(op, Tensor(x), Tensor(y))
        batched = op.jvp((Tensor(dxs), None), out, Tensor(x), Tensor(y))
        assert batched.shape == (4, 2, 3)
        for k in range(4):
            one = op.jvp((Tensor(dxs[k]), None), out, Tensor(x), Tensor(y))
            np.testing.assert_array_equal(batched.data[k], one.data)


@pytest.mark.parametrize(
    "case", SOFTMAX, ids=[f"{c['op']}-{c['dtype']}-{c['seed']}-{c['which']}" for c in SOFTMAX]
)
def test_softmax_tangents_are_pytorchs(case: dict) -> None:
    rng = np.random.default_rng([case["seed"], 31])
    x, dx = (rng.standard_normal((3, 5)).astype(case["dtype"]) * 3 for _ in range(2))
    a = Tensor(x)
    dual.enter()
    try:
        dual.set_tangent(a, Tensor(dx))
        out = apply(getattr(reduction, case["op"]), a, dim=case["which"])
        t = dual.tangent(out)
    finally:
        dual.leave()
    assert np.ascontiguousarray(t.data).tobytes().hex() == case["tangent"]
