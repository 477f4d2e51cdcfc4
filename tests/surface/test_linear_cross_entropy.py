"""F.linear_cross_entropy (PyTorch's reference path: linear, logits reshaped to
(N, C, *out_features), cross_entropy): gradients in the input, the weight and the bias against
float64 central differences, for index and probability targets, K-dimensional weights,
label smoothing, class weights and ignored targets; grad_fn names as PyTorch's."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core.autograd import grad
from gradcli.core.tensor import Tensor
from gradcli.surface.adaptive import linear_cross_entropy
from tests.helpers import gradcheck as gc

RNG = np.random.default_rng(109)
X = RNG.standard_normal((3, 4))
W1 = RNG.standard_normal((5, 4))
B1 = RNG.standard_normal(5)
WK = RNG.standard_normal((5, 2, 4))
BK = RNG.standard_normal((5, 2))
PROBS = RNG.dirichlet(np.ones(5), size=(3, 2)).transpose(0, 2, 1).copy()  # (N, C, d1)

CASES = {
    "index": (W1, B1, np.array([0, 4, 2]), {}),
    "index-none-smoothed": (
        W1,
        B1,
        np.array([1, 3, 3]),
        {"reduction": "none", "label_smoothing": 0.3},
    ),
    "ignored-weighted": (W1, B1, np.array([2, -100, 4]), {"weight": np.arange(1.0, 6.0)}),
    "kdim-index": (WK, BK, np.array([[0, 1], [4, 4], [2, 3]]), {"reduction": "sum"}),
    "kdim-probs": (WK, BK, PROBS, {"label_smoothing": 0.1}),
}


def _loss(x, w, b, target, kw):
    kw = dict(kw)
    if "weight" in kw:
        kw["weight"] = Tensor(kw["weight"])
    return linear_cross_entropy(x, w, Tensor(target), linear_bias=b, **kw)


@pytest.mark.parametrize("case", sorted(CASES))
def test_gradients_match_central_differences(case: str) -> None:
    w0, b0, target, kw = CASES[case]
    seed = Tensor(np.ones(3)) if kw.get("reduction") == "none" else None
    ts = [Tensor(a.copy(), requires_grad=True) for a in (X, w0, b0)]
    out = _loss(*ts, target, kw)
    got = grad(out, ts, seed)

    def f(arrays: list) -> float:
        return float(np.sum(_loss(*(Tensor(a) for a in arrays), target, kw).data))

    want = gc.numeric_grad(f, [X, w0, b0], [0, 1, 2], gc.STEP)
    for g, n in zip(got, want):
        assert gc.rel_error(g.data, n) <= 1e-7


def test_grad_fns_are_cross_entropys() -> None:
    x = Tensor(X, requires_grad=True)
    kdim = np.array([[0, 1], [4, 4], [2, 3]])
    made = [(W1, np.array([0, 1, 2])), (WK, kdim), (WK, PROBS)]
    names = [_loss(x, Tensor(w), None, t, {}).grad_fn.name() for w, t in made]
    assert names == ["NllLossBackward0", "NllLoss2DBackward0", "DivBackward1"]
