"""Float64 convolutions of the avx2 kernel family (`ops.conv_order.slow_conv64`: ATen's
slow_conv2d, im2col then MKL's dgemm / dgemv on an AVX2 processor): PyTorch 2.13's bits on an
AMD EPYC (Zen 4), one thread (`data/conv64_avx2_record.py`, its inputs shared), against
gradcli's conv under GRADCLI_KERNELS=avx2, every element bit for bit."""

from __future__ import annotations

import json
import sys
from pathlib import Path

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
