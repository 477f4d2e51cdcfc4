"""torch.special.ndtri follows ATen's calc_ndtri step by step in float32 and float64 (Cephes'
rational approximations, Horner fused as the AVX2 build compiles it, the tails' logarithms in
double), and log_ndtr ATen's branch from -1 up (log1p(-erfc(t) / 2) with the C library's
functions): PyTorch 2.13's bits, recorded (tests/ops/data/record_ndtri.py) and compared by
sha256. Horner without its fused steps fails the record; the gradients are checked against
central differences in float64."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from gradcli.core.op import apply
from gradcli.core.tensor import Tensor
from gradcli.ops import special as S

DATA = Path(__file__).resolve().parent / "data"
RECORD = json.loads((DATA / "ndtri_log_ndtr.json").read_text())
sys.path.insert(0, str(DATA))
import record_ndtri as R  # noqa: E402

sys.path.remove(str(DATA))


# the recorder's own draws and digest
_probabilities, _arguments, _sha = R.probabilities, R.arguments, R.sha


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_ndtri_is_pytorchs(dtype: str) -> None:
    out = S.ndtri.forward(_probabilities(dtype))
    assert out.dtype == np.dtype(dtype)
    assert _sha(out) == RECORD[f"ndtri_{dtype}"]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_log_ndtr_from_minus_one_up_is_pytorchs(dtype: str) -> None:
    out = S.log_ndtr.forward(_arguments(dtype))
    assert out.dtype == np.dtype(dtype)
    assert _sha(out) == RECORD[f"log_ndtr_{dtype}"]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_unfused_horner_fails(dtype: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def plain(x: np.ndarray, coeffs: tuple) -> np.ndarray:
        acc = np.zeros_like(x)
        for c in coeffs:
            acc = acc * x + x.dtype.type(c)
        return acc

    monkeypatch.setattr(S, "_horner_fused", plain)
    assert _sha(S.ndtri.forward(_probabilities(dtype))) != RECORD[f"ndtri_{dtype}"]


@pytest.mark.parametrize("name", ["ndtri", "log_ndtr"])
def test_float64_gradients_are_central_differences(name: str) -> None:
    x = np.array([0.02, 0.3, 0.5, 0.93]) if name == "ndtri" else np.array([-3.0, -0.5, 0.7, 4.0])
    t = Tensor(x.copy(), requires_grad=True)
    op = getattr(S, name)
    apply(op, t).backward(Tensor(np.ones_like(x)))
    h = 1e-6
    num = (op.forward(x + h) - op.forward(x - h)) / (2 * h)
    assert np.allclose(t.grad.data, num, rtol=1e-6)
