"""torch.linalg.matrix_exp (`ops.matrices.matrix_exp`) follows ATen's mexp step by step: on the
avx2 kernel family (gradcli.core.cpu, PyTorch measured on AMD EPYC) its float32 values and
gradients are PyTorch's to the bit, one matrix in each of ATen's degree intervals, scaled and
squared ones, MKL-sized products, a batch, and products whose bits follow their address
(recorded with torch 2.13: tests/ops/data/record_avx2_matrix_exp.py). The float64 gradient
is checked against central differences, and a rule 0.1% off (one coefficient of the degree-18
polynomial) fails."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu
from gradcli.core.tensor import Tensor
from gradcli.ops import matrices as M
from gradcli.surface import extras as X

CASES = json.loads((Path(__file__).parent / "data" / "avx2_matrix_exp.json").read_text())["cases"]


def _run(case: dict) -> tuple[np.ndarray, np.ndarray]:
    a = Tensor(np.array(case["a"], np.float32), requires_grad=True)
    e = X.matrix_exp(a)
    e.backward(Tensor(np.array(case["g"], np.float32)))
    return e.data, a.grad.data


@pytest.mark.parametrize(
    "case", CASES, ids=[f"norm{c['norm']:g}-{'x'.join(map(str, c['shape']))}" for c in CASES]
)
def test_float32_bits_are_pytorchs_on_avx2(case: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    value, grad = _run(case)
    assert value.dtype == grad.dtype == np.float32
    assert value.view(np.uint32).ravel().tolist() == case["value_bits"]
    assert grad.view(np.uint32).ravel().tolist() == case["grad_bits"]


def test_a_coefficient_off_by_a_thousandth_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    case = next(c for c in CASES if c["norm"] == 2.5)  # degree 18, unscaled
    rows = [list(r) for r in M._MEXP_B18]
    rows[2][1] *= 1.001
    monkeypatch.setattr(M, "_MEXP_B18", tuple(tuple(r) for r in rows))
    value, grad = _run(case)
    assert value.view(np.uint32).ravel().tolist() != case["value_bits"]
    assert grad.view(np.uint32).ravel().tolist() != case["grad_bits"]


@pytest.mark.parametrize("scale", [0.02, 0.5, 2.0, 7.0])
def test_float64_gradient_is_central_differences(scale: float) -> None:
    rng = np.random.default_rng(int(scale * 100))
    a = rng.standard_normal((2, 4, 4)) * scale / 4
    w = rng.standard_normal((2, 4, 4))
    t = Tensor(a.copy(), requires_grad=True)
    (X.matrix_exp(t) * Tensor(w)).sum().backward()
    h = 1e-6
    num = np.zeros_like(a)
    for idx in np.ndindex(*a.shape):
        up, down = a.copy(), a.copy()
        up[idx] += h
        down[idx] -= h
        fu = (X.matrix_exp(Tensor(up)).data * w).sum()
        fd = (X.matrix_exp(Tensor(down)).data * w).sum()
        num[idx] = (fu - fd) / (2 * h)
    assert np.allclose(t.grad.data, num, rtol=1e-7, atol=1e-7 * np.abs(num).max())


def test_nan_and_infinite_matrices_give_nan_as_pytorch() -> None:
    a = np.array([[[0.1, np.nan], [0.3, 0.4]], [[0.1, np.inf], [0.3, 0.4]], [[3, 0], [0, 3]]])
    out = X.matrix_exp(Tensor(a.astype(np.float32))).data
    assert np.isnan(out[:2]).all()
    assert out[2, 0, 0] == np.float32(20.085537) and out[2, 0, 1] == 0
