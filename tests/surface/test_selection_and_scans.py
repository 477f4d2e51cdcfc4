"""flip, roll, tile, narrow, index_select, masked_select, take, repeat_interleave, scatter,
diff, cumsum / cumprod / cummax / cummin / logcumsumexp, median / nanmedian / mode, quantile,
std_mean / var_mean and trapezoid, as a program calls them: each call's vector-Jacobian
product against float64 central differences of the same call, the indices the selections
pick against PyTorch's (live, where torch is installed), and what misuse says."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.tensor import Tensor
from gradcli.surface import names as N
from gradcli.surface import statistics as ST

T = N.FUNCTIONS


def _values(r: Any) -> Tensor:
    if isinstance(r, tuple):
        return r[0]
    return r


def _distinct(shape: tuple[int, ...], seed: int) -> np.ndarray:
    """Values at least 0.05 apart (no ties: selections are differentiable there)."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    grid = -2.0 + 0.1 * rng.permutation(max(n, 1) * 2)[:n]
    return (grid + rng.uniform(-0.02, 0.02, size=n)).reshape(shape)


def _check(f: Callable[[Tensor], Any], x0: np.ndarray, seed: int = 0) -> None:
    x = Tensor(x0.copy(), requires_grad=True)
    out = _values(f(x))
    w = np.random.default_rng(seed + 1).uniform(-1, 1, size=out.shape)
    (out * Tensor(w)).sum().backward()
    got = x.grad.data if x.grad is not None else np.zeros_like(x0)
    h = 1e-6
    want = np.zeros_like(x0)
    for i in np.ndindex(x0.shape):
        up, down = x0.copy(), x0.copy()
        up[i] += h
        down[i] -= h
        fu = np.sum(_values(f(Tensor(up))).data * w)
        fd = np.sum(_values(f(Tensor(down))).data * w)
        want[i] = (fu - fd) / (2 * h)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


CALLS: dict[str, tuple[Callable[[Tensor], Any], tuple[int, ...]]] = {
    "flip": (lambda x: T["flip"](x, dims=[1]), (2, 3)),
    "flip2": (lambda x: T["flip"](x, (0, 2)), (2, 3, 2)),
    "flip_method": (lambda x: x.flip(0, 1), (3, 2)),
    "fliplr": (lambda x: T["fliplr"](x), (2, 3)),
    "flipud": (lambda x: T["flipud"](x), (3,)),
    "roll": (lambda x: T["roll"](x, shifts=1, dims=1), (2, 3)),
    "roll_flat": (lambda x: T["roll"](x, -2), (2, 3)),
    "roll_two": (lambda x: x.roll((1, -1), (0, 1)), (3, 4)),
    "tile": (lambda x: T["tile"](x, (2, 1, 2)), (2, 3)),
    "narrow": (lambda x: T["narrow"](x, 1, -2, 2), (2, 3)),
    "index_select": (lambda x: x.index_select(0, Tensor(np.array([2, 0, 2]))), (3, 2)),
    "masked_select": (
        lambda x: T["masked_select"](x, Tensor(np.array([True, False, True]))),
        (2, 3),
    ),
    "take": (lambda x: T["take"](x, Tensor(np.array([[0, 5], [-1, 2]]))), (2, 3)),
    "repeat_interleave": (lambda x: x.repeat_interleave(2, dim=1), (2, 3)),
    "repeat_interleave_t": (
        lambda x: T["repeat_interleave"](x, Tensor(np.array([1, 0, 3])), dim=0),
        (3, 2),
    ),
    "scatter": (
        lambda x: T["scatter"](
            Tensor(np.zeros((3, 3))), 0, Tensor(np.array([[1, 2, 0], [0, 1, 2]])), x
        ),
        (2, 3),
    ),
    "scatter_self": (
        lambda x: x.scatter(1, Tensor(np.array([[0], [2]])), Tensor(np.array([[1.0], [2.0]]))),
        (2, 3),
    ),
    "scatter_add": (
        lambda x: x.scatter_add(1, Tensor(np.array([[0, 0], [2, 1]])), x[:, :2] * 3),
        (2, 3),
    ),
    "diff": (lambda x: T["diff"](x), (2, 4)),
    "diff_n": (lambda x: T["diff"](x, n=2, dim=0, prepend=x[:1] * 2, append=x[-1:]), (3, 2)),
    "cumsum": (lambda x: x.cumsum(dim=0), (3, 2)),
    "cumprod": (lambda x: T["cumprod"](x, 1), (2, 4)),
    "cummax": (lambda x: T["cummax"](x, 1), (2, 4)),
    "cummin": (lambda x: x.cummin(0).values, (4, 2)),
    "logcumsumexp": (lambda x: T["logcumsumexp"](x, dim=-1), (2, 4)),
    "median": (lambda x: T["median"](x), (3, 3)),
    "median_dim": (lambda x: x.median(dim=1, keepdim=True), (3, 4)),
    "nanmedian": (lambda x: T["nanmedian"](x, 0), (3, 2)),
    "mode": (lambda x: T["mode"](x), (2, 3)),
    "quantile": (lambda x: T["quantile"](x, 0.3), (2, 3)),
    "quantile_dim": (
        lambda x: T["quantile"](x, Tensor(np.array([0.2, 0.75])), dim=0, keepdim=True),
        (4, 2),
    ),
    "quantile_mid": (lambda x: T["quantile"](x, 0.5, dim=1, interpolation="midpoint"), (2, 4)),
    "nanquantile": (
        lambda x: T["nanquantile"](
            x + Tensor(np.array([[0.0, np.nan, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]])), 0.4, dim=1
        ),
        (2, 4),
    ),
    "std_mean": (lambda x: T["std_mean"](x, dim=1)[0] + T["std_mean"](x, dim=1)[1] * 2, (2, 3)),
    "var_mean": (lambda x: T["var_mean"](x, unbiased=False)[0] * T["var_mean"](x)[1], (2, 3)),
    "trapezoid": (lambda x: T["trapezoid"](x, dx=0.5), (2, 4)),
    "trapezoid_x": (
        lambda x: T["trapezoid"](x, Tensor(np.array([0.0, 1.0, 3.0, 3.5])), dim=1),
        (2, 4),
    ),
    "trapezoid_xy": (lambda x: T["trapezoid"](x[1], x=x[0].cumsum(0)), (2, 4)),
    "trapz": (lambda x: T["trapz"](x, dim=0), (3, 2)),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_vjp_matches_central_differences(name: str) -> None:
    f, shape = CALLS[name]
    _check(f, _distinct(shape, seed=len(name)), seed=len(name))


def test_a_rule_off_by_a_tenth_of_a_percent_fails_the_check() -> None:
    def wrong(x: Tensor) -> Tensor:
        out = T["cumprod"](x, 1)
        return out + (out - Tensor(out.data)) * 0.001  # the gradient 1.001 times too large

    with pytest.raises(AssertionError):
        _check(wrong, _distinct((2, 4), 3))


def test_median_without_dim_shares_the_gradient_between_ties() -> None:
    x = Tensor(np.array([[5.0], [5.0], [1.0]]), requires_grad=True)
    T["median"](x).backward()
    np.testing.assert_array_equal(x.grad.data, [[0.5], [0.5], [0.0]])


def test_cumprod_through_zeros_is_torchs() -> None:
    x = Tensor(np.array([0.0, 2.0, 0.0, 5.0]), requires_grad=True)
    T["cumprod"](x, 0).sum().backward()
    np.testing.assert_array_equal(x.grad.data, [3.0, 0.0, 0.0, 0.0])


def test_logcumsumexp_gradient_is_finite_for_a_wide_spread() -> None:
    # exp(1000) overflows: the O(n) form cannot be used; the matrix form gives the exact
    # gradient, as PyTorch's (each element is all of its own running sum).
    x = Tensor(np.array([-1000.0, 0.0, 1000.0], dtype=np.float32), requires_grad=True)
    T["logcumsumexp"](x, 0).sum().backward()
    np.testing.assert_allclose(x.grad.data, [1.0, 1.0, 1.0], atol=1e-6)
    x = Tensor(np.array([-100.0, 3.0, 50.0, 2.0], dtype=np.float32), requires_grad=True)
    (T["logcumsumexp"](x, 0) * Tensor(np.array([1.0, -2.0, 0.5, 3.0], np.float32))).sum().backward()
    np.testing.assert_allclose(x.grad.data, [1.0, -2.0, 3.5000093, 4.2754983e-21], rtol=1e-5)


@pytest.mark.parametrize("n", [3, 16, 17, 40])
def test_selection_indices_are_torchs(n: int) -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(n)
    for trial in range(20):
        a = rng.integers(0, 1 + trial % 5, size=(3, n)).astype(np.float64)
        if trial % 4 == 0:
            a[rng.integers(0, 3), rng.integers(0, n)] = np.nan
        if trial % 7 == 0:
            a[1] = np.nan
        t = torch.tensor(a)
        for fn in ("mode", "median", "nanmedian", "cummax", "cummin"):
            want = getattr(torch, fn)(t, 1)
            got = getattr(ST, fn)(Tensor(a), 1)
            np.testing.assert_array_equal(got.indices.data, want.indices.numpy(), err_msg=fn)
            np.testing.assert_array_equal(got.values.data, want.values.numpy(), err_msg=fn)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda x: T["flip"](x, 0), "must be tuple of ints, not int"),
        (lambda x: T["flip"](x, (0, 0)), "dim 0 appears multiple times"),
        (lambda x: T["roll"](x, (1, 2), 0), "shifts and dimensions must align"),
        (lambda x: T["narrow"](x, 1, 5, 1), "start out of range"),
        (lambda x: T["narrow"](x, 1, 1, 3), "exceeds dimension size (3)"),
        (lambda x: T["index_select"](x, 1, Tensor(np.array([3]))), "out of DATA bounds"),
        (lambda x: T["index_select"](x, 1, Tensor(np.array([0.0]))), "int32 or int64"),
        (lambda x: T["masked_select"](x, Tensor(np.array([1, 0, 1]))), "expected BoolTensor"),
        (lambda x: T["take"](x, Tensor(np.array([6]))), "tried to access index 6"),
        (lambda x: T["tile"](x, (-1,)), "negative dimension"),
        (lambda x: T["diff"](x, n=-1), "order must be non-negative"),
        (lambda x: T["diff"](x, dim=0, prepend=Tensor(np.zeros(3))), "same dimension"),
        (lambda x: T["median"](Tensor(np.zeros((2, 0))), 1), "non-zero size"),
        (lambda x: T["quantile"](x, 1.5), "must be in the range [0, 1] but got 1.5"),
        (lambda x: T["quantile"](x, 0.5, interpolation="foo"), "must be one of linear"),
        (lambda x: T["logcumsumexp"](Tensor(np.array([1, 2])), 0), "not implemented for 'Long'"),
        (lambda x: T["var_mean"](Tensor(np.array([1, 2])), 0), "only support floating point"),
        (lambda x: T["repeat_interleave"](x, -1), "Repeats must be non-negative"),
        (lambda x: T["scatter"](x, 1, Tensor(np.array([[3]])), 1.0), "out of bounds"),
        (lambda x: T["trapezoid"](x, Tensor(np.array([0.0, 1.0]))), "one `x` value"),
    ],
)
def test_misuse_says_what_pytorch_says(call: Callable[[Tensor], Any], message: str) -> None:
    x = Tensor(np.arange(6.0).reshape(2, 3))
    with pytest.raises(GradcliError) as e:
        call(x)
    assert message in str(e.value)
