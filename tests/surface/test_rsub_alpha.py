"""torch.rsub(input, other, alpha=): other - alpha * input as ATen's sub kernel computes it in
float32 (one fused multiply-add, one rounding), recorded from PyTorch 2.13; its gradients
against central finite differences in float64; a product then difference (two roundings) is
shown to miss the recorded bits."""

from __future__ import annotations

import numpy as np

from gradcli.core.tensor import Tensor
from gradcli.surface import names

X = [0.1, -1.7, 3.3, 2.9, -0.45, 7.25, 1e-3, 5.5]
Y = [1.3, 0.2, -2.6, 4.1, 0.77, -3.3, 9.9, 0.125]
# PyTorch 2.13: torch.rsub(x, y, alpha=0.7) and torch.rsub(x, 1.3, alpha=1.1), float32
TENSOR_OTHER = [
    "0x1.3ae1460000000p+0", "0x1.63d70a0000000p+0", "-0x1.3a3d700000000p+2",
    "0x1.08f5c20000000p+1", "0x1.15c28e0000000p+0", "-0x1.0c00000000000p+3",
    "0x1.3cc7100000000p+3", "-0x1.dccccc0000000p+1",
]  # fmt: skip
NUMBER_OTHER = [
    "0x1.30a3d60000000p+0", "0x1.95c2900000000p+1", "-0x1.2a3d720000000p+1",
    "-0x1.e3d70e0000000p+0", "0x1.cb851e0000000p+0", "-0x1.ab33340000000p+2",
    "0x1.4c84b60000000p+0", "-0x1.3000000000000p+2",
]  # fmt: skip


def _f32(v: list[float]) -> Tensor:
    return Tensor(np.array(v, dtype=np.float32))


def _recorded(hexes: list[str]) -> np.ndarray:
    return np.array([float.fromhex(h) for h in hexes], dtype=np.float32)


def test_values_are_pytorchs_bits() -> None:
    got = names.rsub(_f32(X), _f32(Y), alpha=0.7).data
    assert got.dtype == np.float32
    assert got.tobytes() == _recorded(TENSOR_OTHER).tobytes()
    got = names.rsub(_f32(X), 1.3, alpha=1.1).data
    assert got.tobytes() == _recorded(NUMBER_OTHER).tobytes()


def test_two_roundings_miss_the_bits() -> None:
    x, y = np.array(X, np.float32), np.array(Y, np.float32)
    two = y - np.float32(0.7) * x
    assert two.tobytes() != _recorded(TENSOR_OTHER).tobytes()
    two = np.float32(1.3) - np.float32(1.1) * x
    assert two.tobytes() != _recorded(NUMBER_OTHER).tobytes()


def test_gradients_match_finite_differences() -> None:
    rng = np.random.default_rng(3)
    x0, y0 = rng.standard_normal(5), rng.standard_normal(5)
    w = rng.standard_normal(5)
    alpha = 0.37

    def f(x: np.ndarray, y: np.ndarray) -> float:
        return float(np.sum(w * np.sin(y - alpha * x)))

    x = Tensor(x0.copy(), requires_grad=True)
    y = Tensor(y0.copy(), requires_grad=True)
    out = names.rsub(x, y, alpha=alpha)
    loss = (Tensor(w) * out.sin()).sum()
    loss.backward()
    h = 1e-6
    for k in range(5):
        e = np.zeros(5)
        e[k] = h
        dx = (f(x0 + e, y0) - f(x0 - e, y0)) / (2 * h)
        dy = (f(x0, y0 + e) - f(x0, y0 - e)) / (2 * h)
        assert abs(x.grad.data[k] - dx) < 1e-8
        assert abs(y.grad.data[k] - dy) < 1e-8
    assert out.grad_fn is not None
