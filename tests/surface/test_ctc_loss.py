"""F.ctc_loss / nn.CTCLoss: values PyTorch 2.13 gave (recorded), gradients through log_softmax
against central differences (PyTorch's CtcLossBackward0 is the gradient through log_softmax's
input, not of the loss in its log probabilities), the compositions of the reductions, and
PyTorch's argument checks in its words."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.autograd import grad
from gradcli.core.tensor import Tensor, enable_grad
from gradcli.surface import functional as F
from gradcli.surface.nnlosses import ctc_loss
from tests.helpers import gradcheck as gc


def _x(dtype=np.float64) -> np.ndarray:
    return (np.sin(np.arange(40.0) * 0.7).reshape(5, 2, 4) * 2).astype(dtype)


PADDED = Tensor(np.array([[1, 2, 2], [3, 1, 0]]))


def _loss(x: Tensor, **kw) -> Tensor:
    return ctc_loss(F.log_softmax(x, 2), PADDED, [5, 4], [3, 2], **kw)


# PyTorch 2.13's values for _x() (float64), recorded.
RECORDED = {
    "mean": 2.161185991184069,
    "sum": 11.232253346795861,
    "none": [7.762528146178756, 3.4697252006171064],
}


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_values_are_pytorchs(reduction: str) -> None:
    out = _loss(Tensor(_x()), reduction=reduction)
    assert out.data.tolist() == RECORDED[reduction]


def test_float32_concatenated_targets_and_another_blank_are_pytorchs() -> None:
    lp = F.log_softmax(Tensor(_x(np.float32)), 2)
    out = ctc_loss(lp, Tensor(np.array([1, 3, 3, 0])), [5, 3], [3, 1], blank=2, reduction="none")
    assert out.dtype == np.float32
    assert out.data.tolist() == [4.107758045196533, 1.1187421083450317]


@pytest.mark.parametrize(
    "kw",
    [
        {"reduction": "mean"},
        {"reduction": "sum"},
        {"reduction": "none"},
        {"reduction": "mean", "blank": 3},
        {"reduction": "sum", "zero_infinity": True},
    ],
)
def test_gradient_through_log_softmax_matches_central_differences(kw: dict) -> None:
    x0 = np.random.default_rng(5).standard_normal((5, 2, 4))
    w = np.random.default_rng(6).standard_normal(2) if kw["reduction"] == "none" else 1.0

    def f(xs: list) -> float:
        out = _loss(Tensor(xs[0]), **kw).data
        return float(np.sum(out * w))

    x = Tensor(x0.copy(), requires_grad=True)
    out = _loss(x, **kw)
    (g,) = grad(out, [x], Tensor(np.broadcast_to(w, out.shape).copy()))
    want = gc.numeric_grad(f, [x0], [0], gc.STEP)[0]
    assert gc.rel_error(g.data, want) <= 1e-7


def test_the_gradient_in_log_probs_is_pytorchs_formula_not_the_derivative() -> None:
    """On raw log probabilities (no log_softmax) the gradient is the derivative plus
    exp(lp) * g for each item's time steps (PyTorch's formula), zero past its length."""
    x0 = -np.abs(np.random.default_rng(7).standard_normal((5, 2, 4)))
    lengths = [5, 3]

    def f(xs: list) -> float:
        return float(ctc_loss(Tensor(xs[0]), PADDED[:, :2], lengths, [2, 2], reduction="sum").data)

    x = Tensor(x0.copy(), requires_grad=True)
    ctc_loss(x, PADDED[:, :2], lengths, [2, 2], reduction="sum").backward()
    want = gc.numeric_grad(f, [x0], [0], gc.STEP)[0]
    keep = (np.arange(5)[:, None] < np.array(lengths)[None, :])[..., None]
    want = want + np.where(keep, np.exp(x0), 0.0)
    assert gc.rel_error(x.grad.data, want) <= 1e-7
    assert not x.grad.data[3:, 1].any()


def test_grad_fns_are_pytorchs_compositions() -> None:
    x = Tensor(_x(), requires_grad=True)
    assert _loss(x).grad_fn.name() == "MeanBackward0"
    assert _loss(x).grad_fn.next_functions[0][0].name() == "DivBackward0"
    assert _loss(x, reduction="sum").grad_fn.name() == "SumBackward0"
    assert _loss(x, reduction="none").grad_fn.name() == "CtcLossBackward0"
    assert _loss(x, reduction="none", zero_infinity=True).grad_fn.name() == "WhereBackward0"
    lp = Tensor(_x()[:, 0], requires_grad=True)
    one = ctc_loss(lp, Tensor(np.array([1, 2])), (5,), (2,), reduction="none")
    assert one.shape == () and one.grad_fn.name() == "SqueezeBackward1"


def test_zero_infinity_zeroes_the_loss_and_its_gradient() -> None:
    x = Tensor(_x(), requires_grad=True)
    lp = F.log_softmax(x, 2)
    inf = ctc_loss(lp, PADDED, [2, 4], [3, 2], reduction="none")
    assert inf.data[0] == np.inf
    out = ctc_loss(lp, PADDED, [2, 4], [3, 2], reduction="none", zero_infinity=True)
    assert out.data[0] == 0 and out.data[1] == inf.data[1]
    out.sum().backward()
    assert not x.grad.data[:, 0].any() and x.grad.data[:, 1].any()


def test_mean_divides_by_the_target_length_at_least_one() -> None:
    lp = F.log_softmax(Tensor(_x()), 2)
    none = ctc_loss(lp, PADDED, [5, 4], [0, 2], reduction="none").data
    mean = ctc_loss(lp, PADDED, [5, 4], [0, 2]).data
    assert mean == (none[0] / 1 + none[1] / 2) / 2


def test_create_graph_gradient_has_no_derivative() -> None:
    x = Tensor(_x(), requires_grad=True)
    out = ctc_loss(x, PADDED, [5, 4], [3, 2], reduction="sum")
    with enable_grad():
        (g,) = grad(out, [x], create_graph=True)
    assert g.requires_grad
    with pytest.raises(GradcliError, match=r"derivative for aten::_ctc_loss_backward is not impl"):
        g.sum().backward()


@pytest.mark.parametrize(
    "args, kw, words",
    [
        (([5, 4], [3, 2]), {"blank": 4}, "blank must be in label range"),
        (([5], [3, 2]), {}, "input_lengths must be of size batch_size"),
        (([5, 4], [3]), {}, "target_lengths must be of size batch_size"),
        (
            ([6, 4], [3, 2]),
            {},
            r"Expected input_lengths to have value at most 5, but got value 6 \(while checking "
            r"arguments for ctc_loss_allocate_outputs\)",
        ),
        (
            ([5, 4], [4, 2]),
            {},
            r"Expected tensor to have size at least 4 at dimension 1, but got size 3 for "
            r"argument #2 'targets'",
        ),
        (
            ([5, -1], [3, 2]),
            {},
            "Expected input_lengths to have value at least 0, but got value -1",
        ),
        ((5, 3), {}, r"received an invalid combination of arguments - got \(Tensor, Tensor, int"),
        (([5, 4], [3, 2]), {"reduction": "avg"}, "^avg is not a valid value for reduction"),
    ],
)
def test_pytorchs_checks(args: tuple, kw: dict, words: str) -> None:
    lp = F.log_softmax(Tensor(_x()), 2)
    with pytest.raises(GradcliError, match=words):
        ctc_loss(lp, PADDED, *args, **kw)


def test_labels_outside_the_classes_are_refused_in_plain_words() -> None:
    """PyTorch does not check them and reads outside its tensor: gradcli refuses."""
    lp = F.log_softmax(Tensor(_x()), 2)
    with pytest.raises(GradcliError, match="target label 7 is out of range for 4 classes"):
        ctc_loss(lp, Tensor(np.array([[1, 7, 2], [3, 1, 0]])), [5, 4], [3, 2])


def test_the_alignment_table_is_limited_before_any_work() -> None:
    x = Tensor(np.zeros((1000, 100, 2)))
    t = Tensor(np.ones((100, 1000), dtype=np.int64))
    with pytest.raises(GradcliError, match="over the limit"):
        ctc_loss(x, t, [1000] * 100, [1000] * 100)
