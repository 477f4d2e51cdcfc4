"""A large matmul in pieces, the clock read between them (NumPy's integer matmul has no BLAS:
one call could run for minutes inside one step of the time budget), and an integer one in
float64 where that is exact. The pieces must give NumPy's product exactly (integers, with
their wrapping) or to rounding (floats), in every shape matmul broadcasts."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core import hooks
from gradcli.ops import linalg as L

SHAPES = [
    ((5, 3), (3,)),
    ((3,), (3, 7)),
    ((6, 3), (3, 4)),
    ((2, 6, 3), (3, 4)),
    ((6, 3), (2, 3, 4)),
    ((3,), (2, 3, 4)),
    ((2, 2, 3), (3,)),
    ((2, 1, 5, 3), (3, 3, 4)),
    ((1, 5, 3), (2, 3, 2)),
    ((4, 1, 2, 3), (1, 5, 3, 2)),
    ((0, 3), (3, 4)),
    ((3, 0), (0, 4)),
    ((9, 40), (40, 2)),
]


class Counting(hooks.Observer):
    def __init__(self, stop_at: int | None = None) -> None:
        self.calls = 0
        self.stop_at = stop_at

    def check_clock(self) -> None:
        self.calls += 1
        if self.stop_at is not None and self.calls >= self.stop_at:
            raise TimeoutError("the time limit")


@pytest.fixture
def observer(monkeypatch: pytest.MonkeyPatch) -> Counting:
    watch = Counting()
    monkeypatch.setattr(hooks, "observer", watch)
    return watch


@pytest.fixture
def tiny_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(L, "INT_PIECE", 40)
    monkeypatch.setattr(L, "FLOAT_PIECE", 40)


def _draw(rng: np.random.Generator, shape: tuple, dtype: type, high: int) -> np.ndarray:
    if np.dtype(dtype).kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    low = 0 if np.dtype(dtype).kind == "u" else -high
    return rng.integers(low, high, shape, dtype=np.int64).astype(dtype)


@pytest.mark.parametrize(("xs", "ys"), SHAPES)
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.float64, np.float32])
@pytest.mark.parametrize("high", [7, 2**40])  # exact in float64, and not (integer pieces)
def test_pieces_give_numpys_product(
    xs: tuple, ys: tuple, dtype: type, high: int, tiny_pieces: None, observer: Counting
) -> None:
    rng = np.random.default_rng(len(xs) * 10 + len(ys))
    x, y = _draw(rng, xs, dtype, high), _draw(rng, ys, dtype, high)
    got, want = L._matmul_fwd(x, y), np.matmul(x, y)
    assert got.shape == want.shape and got.dtype == want.dtype
    if np.dtype(dtype).kind == "f":
        # (batches of both operands, small: PyTorch's plain loop, whose order is not NumPy's;
        # an element that cancels is off by more than 1e-5 of itself)
        f32 = dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=1e-5 if f32 else 1e-12, atol=1e-6 if f32 else 0)
    else:
        np.testing.assert_array_equal(got, want)  # wrapping included, as NumPy's
    # A float32 product of two matrices takes MKL's order of fused multiply-adds instead
    # (bounded by its own cap on the work, `_FMA_MAX_WORK`); a batch of matrices times one
    # matrix is folded into one product of all the rows first, as PyTorch's matmul does.
    rows = int(np.prod(x.shape[:-1])) if x.ndim >= 2 else 1
    fma = dtype == np.float32 and x.ndim >= 2 and y.ndim == 2 and min(rows, y.shape[1]) >= 2
    # (a matrix times a batch is folded the other way: the batch's columns are the rows)
    cols = int(np.prod(y.shape[:-2])) * y.shape[-1] if y.ndim > 2 else 0
    fma = fma or (dtype == np.float32 and x.ndim == 2 and y.ndim > 2 and min(cols, x.shape[0]) >= 2)
    fma = fma or L._blocked64(x, y)  # (float64 matrices: MKL's fused chain, emulated exactly)
    if dtype == np.float64 and x.ndim > 2 and y.ndim == 2:  # (folded into rows first, too)
        fma = fma or L._blocked64(x.reshape(-1, x.shape[-1]), y)
    if want.size and x.shape[-1] * want.size > 40 and not fma:
        assert observer.calls > 1  # in pieces, the clock read before each


def test_exact_float_path_at_its_boundary(
    monkeypatch: pytest.MonkeyPatch, tiny_pieces: None, observer: Counting
) -> None:
    # max|x| * max|y| * k at 2**53: computed in float64, exactly; one more: in integer pieces.
    # Both equal NumPy's integer product.
    used: list[np.dtype] = []
    pieces = L._in_pieces

    def spy(x: np.ndarray, *rest: object) -> np.ndarray:
        used.append(x.dtype)
        return pieces(x, *rest)

    monkeypatch.setattr(L, "_in_pieces", spy)
    k = 64
    for top, dtype in ((2**41, np.float64), (2**41 + 1, np.int64), (-(2**41) - 1, np.int64)):
        x = np.full((3, k), 2**6, dtype=np.int64)
        x[0, 0] = -(2**6)
        y = np.full((k, 5), top, dtype=np.int64)
        y[1, 1] = -top
        assert L._bound(x) * L._bound(y) * k == (2**53 if top == 2**41 else 2**53 + 2**12)
        assert L._matmul_fwd(x, y).tolist() == np.matmul(x, y).tolist()
        assert used.pop() == dtype
    assert L._bound(np.array([-(2**63)], dtype=np.int64)) == 2**63
    assert L._bound(np.array([], dtype=np.int64)) == 0


def test_a_small_product_is_one_numpy_call(observer: Counting) -> None:
    x = np.ones((30, 30), dtype=np.int64)
    assert L._matmul_fwd(x, x).tolist() == np.matmul(x, x).tolist()
    assert observer.calls == 0


def test_the_budget_stops_a_product_between_pieces(
    monkeypatch: pytest.MonkeyPatch, tiny_pieces: None
) -> None:
    watch = Counting(stop_at=3)
    monkeypatch.setattr(hooks, "observer", watch)
    x = np.full((50, 50), 2**40, dtype=np.int64)
    with pytest.raises(TimeoutError):
        L._matmul_fwd(x, x)
    assert watch.calls == 3


def test_the_run_budget_is_the_clock_between_pieces(tiny_pieces: None) -> None:
    # A run's budget (the observer the interpreter installs) stops a product whose time is
    # spent at its first piece, with the time limit's own error.
    import gradcli.lang.runtime  # noqa: F401 - installs the run budget as the observer
    from gradcli.base import limits
    from gradcli.base.errors import LimitError

    assert hooks.observer is limits.BUDGET
    x = np.full((50, 50), 2**40, dtype=np.int64)
    with limits.BUDGET.run():
        L._matmul_fwd(x, x)  # within the time
        limits.BUDGET.deadline -= limits.BUDGET.seconds + 1
        with pytest.raises(LimitError, match="the time limit"):
            L._matmul_fwd(x, x)
