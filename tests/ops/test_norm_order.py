"""Vector norms (orders 1, 2, 3, 1.5, 0.5, 4, -1, -2.5) in ATen's order, against PyTorch
2.13's recorded bits (tests/ops/data/record_norm_order.py): the 2-norm's vectorised path where
the reduced elements make one contiguous run, the scalar kernels (each term added in order, pow
from the C library) elsewhere; float32 and float64, plain and transposed, along every dim."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import gradcli
from gradcli.surface.linalg import vector_norm

DATA = json.loads((Path(__file__).parent / "data" / "norm_order.json").read_text())
CASES = DATA["cases"]


def _input(case: dict) -> np.ndarray:
    shape = case["shape"]
    rng = np.random.default_rng([*shape, 0, 11])
    return rng.standard_normal(shape).astype(case["dtype"])


def _bits(a: np.ndarray) -> list[int]:
    a = np.asarray(a).reshape(-1)
    return [int(b) for b in a.view(np.uint32 if a.dtype == np.float32 else np.uint64)]


def _norm(case: dict) -> np.ndarray:
    x = gradcli.Tensor(_input(case))
    if case["transposed"]:
        x = x.t()
    dim = case["dim"]
    return vector_norm(x, case["p"], None if dim is None else dim).numpy()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_every_recorded_norm_is_pytorchs_to_the_bit(dtype: str) -> None:
    cases = [c for c in CASES if c["dtype"] == dtype]
    assert len(cases) > 200
    for case in cases:
        got = _norm(case)
        assert got.dtype == np.dtype(dtype)
        assert _bits(got) == case["bits"], (
            case["shape"],
            case["transposed"],
            case["p"],
            case["dim"],
        )


def test_the_order_matters_for_these_inputs() -> None:
    """The recorded inputs tell the orders apart: NumPy's pairwise sum of |x| misses PyTorch's
    bits for some float32 1-norms, so the test above cannot pass by NumPy's order."""
    misses = 0
    for case in CASES:
        if case["dtype"] == "float32" and case["p"] == 1 and case["dim"] is None:
            x = _input(case)
            want = case["bits"]
            misses += _bits(np.sum(np.abs(x), dtype=np.float32)) != want
    assert misses > 0


@pytest.mark.parametrize("p", [1.0, 1.5, 3.0, -1.5])
def test_gradient_of_a_norm_along_a_dim_against_finite_differences(p: float) -> None:
    rng = np.random.default_rng(5)
    x0 = rng.standard_normal((4, 6))
    x = gradcli.Tensor(x0.copy(), requires_grad=True)
    vector_norm(x.t(), p, 1).sum().backward()

    def f(a: np.ndarray) -> float:
        return float(np.sum(np.sum(np.abs(a) ** p, axis=0) ** (1 / p)))

    h = 1e-6
    fd = np.zeros_like(x0)
    for i in np.ndindex(*x0.shape):
        up, down = x0.copy(), x0.copy()
        up[i] += h
        down[i] -= h
        fd[i] = (f(up) - f(down)) / (2 * h)
    assert np.allclose(x.grad.numpy(), fd, rtol=1e-6, atol=1e-8)
    assert math.isfinite(float(fd.sum()))


def test_matrix_norms_of_order_one_and_inf_are_pytorchs_to_the_bit() -> None:
    """matrix_norm(ord=+-1, +-inf) sums |A| down columns (rows) as 1-norms, in order (ATen's
    linalg_vector_norm), not as sum() adds them, then takes amax / amin."""
    from gradcli.surface.linalg import matrix_norm

    cases = DATA["matrix_cases"]
    assert len(cases) >= 100
    for case in cases:
        x = np.random.default_rng([*case["shape"], 1, 11]).standard_normal(case["shape"])
        x = x.astype(case["dtype"])
        got = matrix_norm(gradcli.Tensor(x), float(case["ord"]), case["dim"], case["keepdim"])
        assert list(got.shape) == case["out_shape"]
        assert _bits(got.numpy()) == case["bits"], (case["shape"], case["ord"], case["dim"])


def test_matrix_norm_graph_is_amax_over_a_vector_norm() -> None:
    from gradcli.surface.linalg import matrix_norm

    a = gradcli.Tensor(np.arange(12.0).reshape(3, 4) - 5, requires_grad=True)
    r = matrix_norm(a, 1.0)
    assert r.grad_fn.name() == "AmaxBackward0"
    assert r.grad_fn.next_functions[0][0].name() == "LinalgVectorNormBackward0"
    r.backward()
    # column 3 (|-2| + |2| + |6| = 10) is the largest 1-norm: d/dA = sign(A) there, 0 elsewhere
    want = np.zeros((3, 4))
    want[:, 3] = [-1.0, 1.0, 1.0]
    assert np.array_equal(a.grad.numpy(), want)


def test_a_negative_order_norm_with_a_zero_entry_is_zero_with_zero_gradient() -> None:
    """|0|^p is inf for p < 0, so the norm of a row holding a zero is 0; PyTorch's rule for
    p < 1 (sgn(x) |x|^(p-1), masked to 0 where x is 0, times norm^(1-p)) makes that row's
    gradient 0, not nan. torch.norm and linalg.vector_norm take the same op."""
    import gradcli.surface.functional as F

    for fn in (lambda t: F.norm(t, -1.5, 1), lambda t: vector_norm(t, -1.5, 1)):
        w = gradcli.Tensor(np.array([[1.5, 0.0, -2.0], [3.0, -1.0, 0.5]]), requires_grad=True)
        out = fn(w)
        assert out.grad_fn.name() == "LinalgVectorNormBackward0"
        out.sum().backward()
        g = w.grad.numpy()
        assert out.numpy()[0] == 0 and np.all(g[0] == 0)
        row = np.array([3.0, -1.0, 0.5])
        h = 1e-6
        fd = [
            (
                np.sum(np.abs(row + h * e) ** -1.5) ** (1 / -1.5)
                - np.sum(np.abs(row - h * e) ** -1.5) ** (1 / -1.5)
            )
            / (2 * h)
            for e in np.eye(3)
        ]
        assert np.allclose(g[1], fd, rtol=1e-6)
