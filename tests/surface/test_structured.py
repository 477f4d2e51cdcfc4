"""block_diag, diag_embed, rot90, cartesian_prod, combinations, vander, tril/triu_indices,
searchsorted and bucketize as a program calls them: vector-Jacobian products against float64
central differences, the layouts against PyTorch's (live, where torch is installed), sizes
refused before anything is made, and misuse in PyTorch's words."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.tensor import Tensor
from gradcli.surface import names as N

T = N.FUNCTIONS


def _check(f: Callable[[Tensor], Tensor], x0: np.ndarray, seed: int = 0) -> None:
    x = Tensor(x0.copy(), requires_grad=True)
    out = f(x)
    w = np.random.default_rng(seed + 1).uniform(-1, 1, size=out.shape)
    (out * Tensor(w)).sum().backward()
    got = x.grad.data
    h = 1e-6
    want = np.zeros_like(x0)
    for i in np.ndindex(x0.shape):
        up, down = x0.copy(), x0.copy()
        up[i] += h
        down[i] -= h
        want[i] = (np.sum(f(Tensor(up)).data * w) - np.sum(f(Tensor(down)).data * w)) / (2 * h)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


_A = Tensor(np.array([[9.0, 8.0]]))

CALLS: dict[str, tuple[Callable[[Tensor], Tensor], tuple[int, ...]]] = {
    "block_diag": (lambda x: T["block_diag"](x, _A, x[0]), (2, 3)),
    "block_diag_scalar": (lambda x: T["block_diag"](x.sum(), x), (2, 2)),
    "diag_embed": (lambda x: T["diag_embed"](x), (2, 3)),
    "diag_embed_offset": (lambda x: T["diag_embed"](x, offset=-2, dim1=0, dim2=2), (2, 3)),
    "diag_embed_swapped": (lambda x: T["diag_embed"](x, 1, 1, 0), (3,)),
    "rot90": (lambda x: T["rot90"](x), (2, 3)),
    "rot90_k3": (lambda x: T["rot90"](x, 3, [2, 0]), (2, 3, 2)),
    "rot90_k2": (lambda x: x.rot90(-2, [1, 0]), (2, 3)),
    "cartesian_prod": (lambda x: T["cartesian_prod"](x, x * 2), (3,)),
    "combinations": (lambda x: T["combinations"](x, 3), (5,)),
    "combinations_rep": (lambda x: T["combinations"](x, with_replacement=True), (4,)),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_vjp_matches_central_differences(name: str) -> None:
    f, shape = CALLS[name]
    x0 = np.random.default_rng(7).uniform(-2, 2, size=shape)
    _check(f, x0)


@pytest.mark.parametrize(("n", "increasing"), [(4, False), (2, True), (None, False)])
def test_vander_backward_fails_as_pytorchs_does(n: int | None, increasing: bool) -> None:
    # ATen fills torch.vander in place after cumprod saved the columns: PyTorch's own backward
    # fails on the version check (torch.linalg.vander is the differentiable spelling).
    x = Tensor(np.array([0.5, 1.5, -2.0]), requires_grad=True)
    v = T["vander"](x, n, increasing)
    cols = (3 if n is None else n) - 1
    with pytest.raises(
        GradcliError,
        match=rf"\[torch.DoubleTensor \[3, {cols}\]\], which is output 0 "
        "of AsStrided, is at version 3; expected version 2",
    ):
        v.sum().backward()


def test_the_tester_catches_a_wrong_gradient() -> None:
    with pytest.raises(AssertionError):
        _check(lambda x: T["block_diag"](x * x.detach(), x), np.ones((2, 2)) * 1.5)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: T["rot90"](Tensor(np.ones((2, 2))), 1, [0]), "total rotation dims == 2, but got"),
        (
            lambda: T["rot90"](Tensor(np.ones(3))),
            "expected total dims >= 2, but got total dims = 1",
        ),
        (lambda: T["rot90"](Tensor(np.ones((2, 2))), 1, [1, 1]), "rotation dims to be different"),
        (lambda: T["block_diag"](Tensor(np.ones((1, 1, 1)))), "Input 0 has 3 dimensions"),
        (lambda: T["diag_embed"](Tensor(np.ones(2)), 0, 0, 0), "cannot be identical 0, 0"),
        (lambda: T["cartesian_prod"](Tensor(np.ones((2, 2)))), "Expect a 1D vector"),
        (lambda: T["combinations"](Tensor(np.ones(3)), -1), "Expect a non-negative number"),
        (lambda: T["vander"](Tensor(np.ones((2, 2)))), "x must be a one-dimensional tensor."),
        (lambda: T["vander"](Tensor(np.ones(2)), -1), "N must be non-negative."),
        (lambda: T["tril_indices"](-1, 3), "row must be non-negative"),
        (
            lambda: T["searchsorted"](Tensor(np.ones(3)), Tensor(np.ones(2)), side="up"),
            "side can only be 'left' or 'right'",
        ),
        (
            lambda: T["searchsorted"](
                Tensor(np.ones((2, 2))), Tensor(np.ones(2)), side="left", right=True
            ),
            "side and right can't be set to opposites",
        ),
        (
            lambda: T["searchsorted"](Tensor(np.ones((2, 2))), Tensor(np.ones(2))),
            "boundaries tensor should be 1 dimension or the first N-1 dimensions",
        ),
        (
            lambda: T["bucketize"](Tensor(np.ones(2)), Tensor(np.ones((2, 2)))),
            "boundaries tensor must be 1 dimension, but got dim(2)",
        ),
        # sizes: refused before an index array is made
        (lambda: T["combinations"](Tensor(np.ones(200)), 6), "over the limit"),
        (lambda: T["tril_indices"](10**6, 10**6), "over the limit"),
        (lambda: T["vander"](Tensor(np.ones(3)), 10**12), "over the limit"),
        (lambda: T["diag_embed"](Tensor(np.ones(10**5))), "over the limit"),
        (lambda: T["block_diag"](*[Tensor(np.ones(10**4))] * 10**3), "over the limit"),
    ],
)
def test_misuse_in_pytorchs_words(call: Callable[[], Any], message: str) -> None:
    with pytest.raises(GradcliError) as e:
        call()
    assert message in e.value.message


def test_layouts_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 4))
    v = rng.standard_normal(5)
    pairs = [
        (
            T["block_diag"](Tensor(x), Tensor(v), Tensor(x[:1])),
            torch.block_diag(torch.tensor(x), torch.tensor(v), torch.tensor(x[:1])),
        ),
        (T["diag_embed"](Tensor(x), 2, 0, 1), torch.diag_embed(torch.tensor(x), 2, 0, 1)),
        (T["diag_embed"](Tensor(x), -1, 2, 0), torch.diag_embed(torch.tensor(x), -1, 2, 0)),
        (T["rot90"](Tensor(x), 3), torch.rot90(torch.tensor(x), 3)),
        (T["combinations"](Tensor(v), 3), torch.combinations(torch.tensor(v), 3)),
        (T["combinations"](Tensor(v), 2, True), torch.combinations(torch.tensor(v), 2, True)),
        (T["vander"](Tensor(v), 3), torch.vander(torch.tensor(v), 3)),
        (T["tril_indices"](4, 3, -1), torch.tril_indices(4, 3, -1)),
        (T["triu_indices"](3, 5, 2), torch.triu_indices(3, 5, 2)),
        (
            T["searchsorted"](Tensor(np.sort(v)), Tensor(x)),
            torch.searchsorted(torch.tensor(np.sort(v)), torch.tensor(x)),
        ),
        (
            T["bucketize"](Tensor(x), Tensor(np.sort(v)), right=True),
            torch.bucketize(torch.tensor(x), torch.tensor(np.sort(v)), right=True),
        ),
    ]
    for ours, theirs in pairs:
        np.testing.assert_array_equal(ours.data, theirs.numpy())
