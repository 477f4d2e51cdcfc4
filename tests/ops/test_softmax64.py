"""float64 softmax / log_softmax (`ops.softmax64`, ATen's kernel order): the gradients agree
with central finite differences of the forward, and the forward and the gradient are PyTorch
2.13's to the bit on both kernel families (recorded by tests/ops/data/record_softmax64_bits.py)."""

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu
from gradcli.ops.reduction import _log_softmax_fwd, _softmax_backward_fwd, _softmax_fwd

_BITS = json.loads((Path(__file__).parent / "data" / "softmax64_bits.json").read_text())


def _draw(shape, scale):
    rng = np.random.default_rng([*shape, 11])
    x = rng.standard_normal(shape) * abs(scale)
    if scale < 0:
        x[0, 0], x[1, 1], x[2, 2] = np.inf, -np.inf, np.nan
        x[:, 3] = -np.inf
        x[3, :] = -np.inf
    return x


def _digest(a):
    a = np.ascontiguousarray(a).copy()
    a[np.isnan(a)] = np.nan
    return hashlib.sha256(a.tobytes()).hexdigest()[:16]


@pytest.mark.parametrize("family", ["avx512", "avx2"])
def test_forward_is_pytorchs_to_the_bit(family, monkeypatch):
    monkeypatch.setenv(cpu.ENV, family)
    wrong = []
    for case in _BITS[family]:
        x = _draw(tuple(case["shape"]), case["scale"])
        g = _draw(tuple(case["shape"]), 1.0)
        for name, fwd in (("softmax", _softmax_fwd), ("log_softmax", _log_softmax_fwd)):
            y = fwd(x, case["dim"])
            if _digest(y) != case[name]:
                wrong.append((name, case["shape"], case["dim"]))
            grad = _softmax_backward_fwd(g, y, dim=case["dim"], log=name == "log_softmax")
            if _digest(grad) != case[name + "_grad"]:
                wrong.append((name + "_grad", case["shape"], case["dim"]))
    assert not wrong


@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize(("shape", "dim"), [((4, 3), 0), ((2, 5, 11), 1), ((3, 11), 1)])
def test_gradient_matches_central_differences(shape, dim, log):
    rng = np.random.default_rng(7)
    x = rng.normal(size=shape) * 2
    g = rng.normal(size=shape)
    fwd = _log_softmax_fwd if log else _softmax_fwd
    y = fwd(x, dim)
    got = _softmax_backward_fwd(g, y, dim=dim, log=log)
    h = 1e-6
    want = np.empty_like(x)
    for i in np.ndindex(*shape):
        up, down = x.copy(), x.copy()
        up[i] += h
        down[i] -= h
        want[i] = np.sum(g * (fwd(up, dim) - fwd(down, dim))) / (2 * h)
    np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-8)
