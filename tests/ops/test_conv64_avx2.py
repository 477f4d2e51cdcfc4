"""Float64 convolutions of the avx2 kernel family (`ops.conv_order.slow_conv64`: ATen's
slow_conv2d, im2col then MKL's dgemm / dgemv on an AVX2 processor): PyTorch 2.13's bits on an
AMD EPYC (Zen 4), one thread (`data/conv64_avx2_record.py`, its inputs shared), against
gradcli's conv under GRADCLI_KERNELS=avx2, every element bit for bit."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from gradcli.ops import conv

DATA = Path(__file__).resolve().parent / "data"
sys.path.insert(0, str(DATA))
import conv64_avx2_record as R  # noqa: E402

sys.path.remove(str(DATA))
WANT = json.loads((DATA / "conv64_avx2.json").read_text())["cases"]


def _gradcli(i: int):
    x, w, b, s, p, d = R.inputs(i)
    nd = x.ndim - 2
    k, size = w.shape[2:], x.shape[2:]
    out = tuple((size[j] + 2 * p - d * (k[j] - 1) - 1) // s + 1 for j in range(nd))
    return conv._conv_fwd(
        x, w, b, stride=(s,) * nd, dilation=(d,) * nd, pad=(p,) * nd, out=out, groups=1
    )


@pytest.mark.parametrize("i", range(len(R.CASES)))
def test_float64_conv_is_pytorchs_on_avx2(i: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_KERNELS", "avx2")
    assert R.sha(_gradcli(i)) == WANT[i]


def test_the_records_tell_the_orders_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    # the avx512 family's order (unchanged: its own measurements) differs from these records
    # in most cases: the test above can fail
    monkeypatch.setenv("GRADCLI_KERNELS", "avx512")
    other = sum(R.sha(_gradcli(i)) != WANT[i] for i in range(len(R.CASES)))
    assert other >= len(R.CASES) // 2


GRADS = json.loads((DATA / "conv64_avx2.json").read_text())["grads"]


def _geometry(i: int) -> tuple:
    x, w, g, s, p, d, groups = R.grad_inputs(i)
    nd = x.ndim - 2
    geo = {
        "stride": (s,) * nd,
        "dilation": (d,) * nd,
        "pad": (p,) * nd,
        "out": tuple(g.shape[2:]),
        "groups": groups,
    }
    return x, w, g, geo


def _gradcli_grads(i: int) -> list[str]:
    x, w, g, geo = _geometry(i)
    # the order the conv's backward asks for (float64 operands of the conv's own rank)
    order = conv.backward_order(x.shape, w.shape, x.dtype, True, geo)
    y = conv._conv_fwd(x, w, **geo)
    gx = conv._conv_tx_fwd(g, w, size=x.shape[2:], **geo, **order)
    gw = conv._conv_tw_fwd(x, g, kernel=w.shape[2:], **geo, **order)
    return [R.sha(y), R.sha(gx), R.sha(gw)]


@pytest.mark.parametrize("i", range(len(R.GRAD_CASES)))
def test_float64_conv_gradients_are_pytorchs_on_zen4(
    i: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRADCLI_KERNELS", "zen4")
    assert _gradcli_grads(i) == GRADS[i]


def test_the_gradient_records_tell_the_orders_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    # NumPy's order (the avx512 family's) misses most of these records: the test above can fail
    monkeypatch.setenv("GRADCLI_KERNELS", "avx512")
    other = sum(_gradcli_grads(i)[1:] != GRADS[i][1:] for i in range(len(R.GRAD_CASES)))
    assert other >= len(R.GRAD_CASES) // 2


def test_float64_conv_gradients_match_central_differences(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the mirrored order is still the gradient: <g, conv(x, w)>'s central differences
    monkeypatch.setenv("GRADCLI_KERNELS", "zen4")
    x, w, g, geo = _geometry(8)  # grouped, padded
    order = conv.backward_order(x.shape, w.shape, x.dtype, True, geo)
    gx = conv._conv_tx_fwd(g, w, size=x.shape[2:], **geo, **order)
    gw = conv._conv_tw_fwd(x, g, kernel=w.shape[2:], **geo, **order)

    def loss(xx, ww):
        return float(np.sum(conv._conv_fwd(xx, ww, **geo) * g))

    rng = np.random.default_rng(5)
    h = 1e-6
    for a, grad, which in ((x, gx, 0), (w, gw, 1)):
        for _ in range(6):
            idx = tuple(int(rng.integers(s)) for s in a.shape)
            up, dn = a.copy(), a.copy()
            up[idx] += h
            dn[idx] -= h
            args_up = (up, w) if which == 0 else (x, up)
            args_dn = (dn, w) if which == 0 else (x, dn)
            fd = (loss(*args_up) - loss(*args_dn)) / (2 * h)
            assert abs(fd - grad[idx]) < 1e-6 * max(1.0, abs(fd))
