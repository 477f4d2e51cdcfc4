"""float16 conv3d, conv_transpose3d and dilated convolutions as ATen's slow convolutions
compute them (`ops.conv._conv_half` and its gradients; a dilated conv's bias gradient sample
by sample, `conv_db` with `samples`): PyTorch 2.13's bits, forward and gradients, on both
kernel families (recorded by tests/ops/data/record_half_conv3d.py); the sample-by-sample bias
gradient agrees with central finite differences in float64."""

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu
from gradcli.core.tensor import Tensor
from gradcli.surface import names  # noqa: F401 - installs the tensor methods
from gradcli.surface import nnfunctional as NF

_DATA = json.loads((Path(__file__).parent / "data" / "half_conv3d.json").read_text())


def _draw(shape, seed, dtype=np.float16):
    return np.random.default_rng([*shape, seed]).standard_normal(shape).astype(dtype)


def _bias_size(name, wshape, kw):
    return wshape[1] * kw.get("groups", 1) if "transpose" in name else wshape[0]


def _digest(a):
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


@pytest.mark.parametrize("family", ["avx512", "avx2"])
def test_pytorchs_bits(family, monkeypatch):
    monkeypatch.setenv(cpu.ENV, family)
    wrong = []
    for name, xs, ws, kw, *want in _DATA[family]:
        x = Tensor(_draw(tuple(xs), 1), requires_grad=True)
        w = Tensor(_draw(tuple(ws), 2), requires_grad=True)
        b = Tensor(_draw((_bias_size(name, ws, kw),), 3), requires_grad=True)
        y = getattr(NF, name)(x, w, b, **kw)
        y.backward(Tensor(_draw(tuple(y.shape), 4)))
        got = [_digest(t.data) for t in (y, x.grad, w.grad, b.grad)]
        wrong += [(name, xs, kw, i) for i in range(4) if got[i] != want[i]]
    assert not wrong


def test_sample_by_sample_bias_gradient_matches_central_differences():
    x = Tensor(_draw((3, 2, 9, 9), 5, np.float64))
    w = Tensor(_draw((3, 2, 3, 3), 6, np.float64))
    bias = _draw((3,), 7, np.float64)
    g = _draw((3, 3, 5, 5), 8, np.float64)

    def loss(bv):
        return float(np.sum(g * NF.conv2d(x, w, Tensor(bv), dilation=2).data))

    b = Tensor(bias.copy(), requires_grad=True)
    NF.conv2d(x, w, b, dilation=2).backward(Tensor(g))
    h = 1e-6
    want = [(loss(bias + h * e) - loss(bias - h * e)) / (2 * h) for e in np.eye(3)]
    np.testing.assert_allclose(b.grad.data, want, rtol=1e-7, atol=1e-8)
