"""float64 conv3d and conv_transpose1d / 2d / 3d on the zen4 family (ATen's slow paths with
MKL's dgemm: `conv_order.slow_conv64`, `slow_grad_input64`, `slow_grad_weight64`; a grouped
conv_transpose's bias gradient one group at a time, `conv_db` with `groups`): PyTorch 2.13's
bits, forward and gradients, on 48 seeded random cases recorded on AMD Zen 4
(tests/ops/data/record_conv64_slow3d.py); the grouped bias gradient agrees with central
finite differences."""

import hashlib
import json
from pathlib import Path

import numpy as np

from gradcli.core import cpu
from gradcli.core.tensor import Tensor
from gradcli.surface import names  # noqa: F401 - installs the tensor methods
from gradcli.surface import nnfunctional as NF

_DATA = json.loads((Path(__file__).parent / "data" / "conv64_slow3d.json").read_text())


def _draw(shape, seed):
    return np.random.default_rng([*shape, seed]).standard_normal(shape)


def _digest(a):
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


def test_pytorchs_bits_on_zen4(monkeypatch):
    monkeypatch.setenv(cpu.ENV, "zen4")
    wrong = []
    for name, xs, ws, kw, *want in _DATA["zen4"]:
        x = Tensor(_draw(tuple(xs), 1), requires_grad=True)
        w = Tensor(_draw(tuple(ws), 2), requires_grad=True)
        nb = ws[1] * kw["groups"] if "transpose" in name else ws[0]
        b = Tensor(_draw((nb,), 3), requires_grad=True)
        y = getattr(NF, name)(x, w, b, **kw)
        y.backward(Tensor(_draw(tuple(y.shape), 4)))
        got = [_digest(t.data) for t in (y, x.grad, w.grad, b.grad)]
        wrong += [(name, xs, kw, i) for i in range(4) if got[i] != want[i]]
    assert not wrong


def test_grouped_transpose_bias_gradient_matches_central_differences():
    x = Tensor(_draw((2, 4, 5, 5), 5))
    w = Tensor(_draw((4, 1, 3, 3), 6))
    bias = _draw((4,), 7)
    g = _draw((2, 4, 7, 7), 8)

    def loss(bv):
        return float(np.sum(g * NF.conv_transpose2d(x, w, Tensor(bv), groups=4).data))

    b = Tensor(bias.copy(), requires_grad=True)
    NF.conv_transpose2d(x, w, b, groups=4).backward(Tensor(g))
    h = 1e-6
    want = [(loss(bias + h * e) - loss(bias - h * e)) / (2 * h) for e in np.eye(4)]
    np.testing.assert_allclose(b.grad.data, want, rtol=1e-7, atol=1e-8)
