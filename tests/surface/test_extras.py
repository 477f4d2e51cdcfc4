"""The compositions of `surface.extras` (pixel_shuffle, instance_norm, local_response_norm,
adaptive max pooling, rrelu, gumbel_softmax, multi_margin_loss, addr, addbmm, renorm,
corrcoef): their gradients against float64 central differences of their own forward, and the
facts about them that do not show in a printed value. PyTorch's printed values are the
corpus programs' (680_...)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.tensor import Tensor, no_grad
from gradcli.surface import extras as X
from gradcli.surface import linalg as LA
from gradcli.surface.composite import tril, triu
from tests.helpers.gradcheck import compare, numeric_grad

RTOL = 1e-6


def _check(f: Callable[..., Any], shapes: list[tuple[int, ...]], seed: int = 0, **kw: Any):
    """sum(f(*inputs) * w) differentiated by the engine and by central differences."""
    rng = np.random.default_rng(seed)
    arrays = [rng.uniform(-1.5, 1.5, s) for s in shapes]
    out0 = f(*(Tensor(a) for a in arrays), **kw)
    out0 = out0[0] if isinstance(out0, tuple) else out0
    w = rng.uniform(0.5, 1.5, out0.shape)

    def scalar(xs: list[np.ndarray]) -> float:
        with no_grad():
            o = f(*(Tensor(a) for a in xs), **kw)
        o = o[0] if isinstance(o, tuple) else o
        return float(np.sum(o.data.astype(np.float64) * w))

    ts = [Tensor(a.copy(), requires_grad=True) for a in arrays]
    out = f(*ts, **kw)
    out = out[0] if isinstance(out, tuple) else out
    (out * Tensor(w)).sum().backward()
    got = [t.grad.data for t in ts]
    want = numeric_grad(scalar, arrays, list(range(len(arrays))))
    compare(getattr(f, "__name__", "f"), got, want, list(range(len(arrays))), RTOL)


def A_add_eye(a: Tensor) -> Tensor:  # noqa: N802
    """a + 4 I: a well-conditioned triangle in either half. (cholesky_solve's factor is
    given as a triangle: its other entries get PyTorch's gradient, which is not the
    derivative of a value that ignores them.)"""
    return a + Tensor(4.0 * np.eye(a.shape[-1]))


CASES: list[tuple[str, Callable[..., Any], list[tuple[int, ...]], dict]] = [
    ("pixel_shuffle", lambda x: X.pixel_shuffle(x, 2), [(2, 8, 2, 3)], {}),
    ("pixel_unshuffle", lambda x: X.pixel_unshuffle(x, 2), [(3, 4, 6)], {}),
    ("instance_norm", X.instance_norm, [(2, 3, 5)], {}),
    (
        "instance_norm_affine",
        lambda x, w, b: X.instance_norm(x, None, None, w, b),
        [(2, 3, 2, 3), (3,), (3,)],
        {},
    ),
    ("local_response_norm_3d", lambda x: X.local_response_norm(x, 3), [(2, 5, 4)], {}),
    (
        "local_response_norm_4d",
        lambda x: X.local_response_norm(x, 2, alpha=0.5, beta=0.6, k=2.0),
        [(2, 4, 2, 3)],
        {},
    ),
    ("adaptive_max_pool2d", lambda x: X.adaptive_max_pool2d(x, (2, 3)), [(2, 2, 5, 7)], {}),
    ("adaptive_max_pool1d", lambda x: X.adaptive_max_pool1d(x, 4), [(2, 3, 9)], {}),
    ("rrelu_eval", lambda x: X.rrelu(x), [(3, 4)], {}),
    (
        "multi_margin_p1",
        lambda x: X.multi_margin_loss(x, Tensor(np.array([0, 2, 3]))),
        [(3, 4)],
        {},
    ),
    (
        "multi_margin_p2_weight",
        lambda x: X.multi_margin_loss(
            x,
            Tensor(np.array([1, 0, 3])),
            p=2,
            margin=0.7,
            weight=Tensor(np.array([0.5, 2.0, 1.0, 3.0])),
            reduction="none",
        ),
        [(3, 4)],
        {},
    ),
    ("addr", lambda a, u, v: X.addr(a, u, v, beta=0.5, alpha=-2.0), [(3, 4), (3,), (4,)], {}),
    ("addr_broadcast", lambda a, u, v: X.addr(a, u, v), [(4,), (3,), (4,)], {}),
    ("addbmm", lambda a, b, c: X.addbmm(a, b, c, alpha=1.5), [(2, 3), (4, 2, 5), (4, 5, 3)], {}),
    ("renorm_rows", lambda x: X.renorm(x, 2, 0, 1.0), [(4, 3)], {}),
    ("renorm_p1_dim1", lambda x: X.renorm(x, 1, 1, 0.8), [(2, 3, 2)], {}),
    ("corrcoef", X.corrcoef, [(3, 6)], {}),
    (
        "max_unpool2d",
        lambda x: X.max_unpool2d(x, Tensor(np.array([[[[0, 7], [9, 14]]]])), 2),
        [(1, 1, 2, 2)],
        {},
    ),
    (
        "max_unpool1d",
        lambda x: X.max_unpool1d(x, Tensor(np.array([[1, 2, 5]])), 2, output_size=[7]),
        [(1, 3)],
        {},
    ),
    (
        "multilabel_margin",
        lambda x: X.multilabel_margin_loss(
            x, Tensor(np.array([[3, 0, -1, 1], [1, 1, 2, -1], [-1, 0, 0, 0]])), reduction="none"
        ),
        [(3, 4)],
        {},
    ),
    (
        "solve_triangular_upper",
        lambda a, b: LA.solve_triangular(A_add_eye(a), b, upper=True),
        [(3, 3), (3, 2)],
        {},
    ),
    (
        "solve_triangular_right_unit",
        lambda a, b: LA.solve_triangular(a, b, upper=False, left=False, unitriangular=True),
        [(3, 3), (2, 3)],
        {},
    ),
    (
        "cholesky_solve",
        lambda lo, b: X.cholesky_solve(b, A_add_eye(tril(lo))),
        [(3, 3), (3, 2)],
        {},
    ),
    (
        "cholesky_solve_upper",
        lambda u, b: X.cholesky_solve(b, A_add_eye(triu(u)), upper=True),
        [(3, 3), (3, 2)],
        {},
    ),
    ("matrix_exp_small", lambda a: X.matrix_exp(a * 0.05), [(3, 3)], {}),
    ("matrix_exp_scaled", lambda a: X.matrix_exp(a * 3.0), [(3, 3)], {}),
    ("lstsq", lambda a, b: X.lstsq(a, b)[0], [(4, 2), (4, 3)], {}),
    ("cov", X.cov, [(3, 5)], {}),
    (
        "cov_weights",
        lambda x: X.cov(
            x,
            correction=0,
            fweights=Tensor(np.array([1, 2, 1, 3, 1])),
            aweights=Tensor(np.array([0.5, 1.0, 2.0, 1.0, 0.3])),
        ),
        [(2, 5)],
        {},
    ),
    ("cond_2", lambda a: X.cond(A_add_eye(a)), [(3, 3)], {}),
    ("cond_nuc", lambda a: X.cond(A_add_eye(a), "nuc"), [(3, 3)], {}),
    (
        "embedding_bag_mean",
        lambda w: X.embedding_bag(
            Tensor(np.array([1, 2, 4, 4, 0, 3])), w, Tensor(np.array([0, 2, 2, 5]))
        ),
        [(5, 3)],
        {},
    ),
    (
        "embedding_bag_sum_weights_padding",
        lambda w, p: X.embedding_bag(
            Tensor(np.array([[1, 2, 4], [0, 3, 3]])),
            w,
            mode="sum",
            per_sample_weights=p,
            padding_idx=3,
        ),
        [(5, 3), (2, 3)],
        {},
    ),
    (
        "embedding_bag_max",
        lambda w: X.embedding_bag(
            Tensor(np.array([1, 2, 4, 0])), w, Tensor(np.array([0, 3])), mode="max"
        ),
        [(5, 3)],
        {},
    ),
    (
        "embedding_bag_max_empty_bag",
        lambda w: X.embedding_bag(
            Tensor(np.array([3, 1, 4, 2])), w, Tensor(np.array([0, 2, 2])), mode="max"
        ),
        [(5, 3)],
        {},
    ),
]


@pytest.mark.parametrize("name,f,shapes,kw", CASES, ids=[c[0] for c in CASES])
def test_gradients_match_central_differences(name: str, f: Any, shapes: Any, kw: Any) -> None:
    _check(f, shapes, **kw)


def test_embedding_bag_max_empty_bag_is_positive_zero_whatever_row_0_holds() -> None:
    # An empty bag's row was row 0 times 0: -0.0 for a negative entry, NaN for an infinite one.
    w = Tensor(np.array([[-2.0, np.inf, 0.5], [1.0, 2.0, 3.0]]), requires_grad=True)
    out = X.embedding_bag(Tensor(np.array([1])), w, Tensor(np.array([0, 1])), mode="max")
    assert np.array_equal(out.data, [[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
    assert not np.any(np.signbit(out.data[1]))
    out.sum().backward()
    assert np.array_equal(w.grad.data, [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]])


def test_multilabel_margin_leaves_out_the_target_pairs_even_at_infinity() -> None:
    # A left-out (target, target) pair of an infinite score is inf - inf: once nan times 0.
    x = Tensor(np.array([[np.inf, 0.5, -1.0], [0.2, 0.4, 0.9]]), requires_grad=True)
    t = Tensor(np.array([[0, -1, 1], [2, 0, -1]]))
    loss = X.multilabel_margin_loss(x, t, reduction="none")
    assert loss.data[0] == 0.0 and np.isclose(loss.data[1], (0.5 + 1.2) / 3)
    loss[1].backward()
    assert np.allclose(x.grad.data, [[0.0, 0.0, 0.0], [-1 / 3, 2 / 3, -1 / 3]])


@pytest.mark.parametrize("p", [1, 2])
def test_multi_margin_leaves_out_the_target_term_even_at_infinity(p: int) -> None:
    # The target's own term, margin - inf + inf, was nan times 0 (and its gradient nan).
    x = Tensor(np.array([[np.inf, 0.5, -1.0], [0.2, 0.4, 0.9]]), requires_grad=True)
    loss = X.multi_margin_loss(x, Tensor(np.array([0, 2])), p=p, reduction="none")
    terms = np.array([1 - 0.9 + 0.2, 1 - 0.9 + 0.4]) ** p
    assert loss.data[0] == 0.0 and np.isclose(loss.data[1], terms.sum() / 3)
    loss[1].backward()
    d = p * np.array([1 - 0.9 + 0.2, 1 - 0.9 + 0.4]) ** (p - 1) / 3
    assert np.allclose(x.grad.data, [[0.0, 0.0, 0.0], [d[0], d[1], -d.sum()]])


def test_matrix_exp_of_one_by_one_matrices_is_exp() -> None:
    # ATen takes exp of the entry (no polynomial): PyTorch 2.13's values, float32 and float64
    a = np.array([[[0.37]], [[-2.5]], [[11.0]]])
    got32 = X.matrix_exp(Tensor(a.astype(np.float32))).data.ravel().tolist()
    assert got32 == [1.4477345943450928, 0.08208499848842621, 59874.140625]
    got64 = X.matrix_exp(Tensor(a.astype(np.float32).astype(np.float64))).data.ravel().tolist()
    assert got64 == [1.447734621566661, 0.0820849986238988, 59874.14171519782]
    assert X.matrix_exp(Tensor(a, requires_grad=True)).node.name() == "LinalgMatrixExpBackward0"


def test_matrix_exp_is_exp_for_commuting_cases() -> None:
    d = np.diag([0.5, -1.0, 2.0])
    assert np.allclose(X.matrix_exp(Tensor(d)).data, np.diag(np.exp([0.5, -1.0, 2.0])))
    rot = np.array([[0.0, 3.0], [-3.0, 0.0]])
    want = np.array([[np.cos(3), np.sin(3)], [-np.sin(3), np.cos(3)]])
    assert np.allclose(X.matrix_exp(Tensor(rot)).data, want, atol=1e-13)


def test_lstsq_fields_by_driver() -> None:
    a = Tensor(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]))
    b = Tensor(np.array([[1.0], [2.0], [2.0]]))
    r = X.lstsq(a, b)
    assert np.allclose(r[0].data, [[2 / 3], [5 / 3]]) and r[2].data == 2
    assert r[1].data.shape == (0,) and r[3].data.shape == (0,)
    d = X.lstsq(a, b, driver="gelsd")
    assert np.allclose(d[1].data, [1 / 3]) and np.allclose(d[3].data, [np.sqrt(3), 1.0])


def test_a_rule_off_by_a_thousandth_fails() -> None:
    # The check above sees a gradient 0.1% off.
    from tests.helpers.gradcheck import GradcheckError

    g = np.ones(3)
    with pytest.raises(GradcheckError):
        compare("x", [g * 1.001], [g], [0], RTOL)


def test_gumbel_softmax_hard_is_one_hot_with_the_soft_gradient() -> None:
    x = Tensor(np.array([[0.1, 2.0, -1.0], [3.0, 0.0, 0.5]]), requires_grad=True)
    y = X.gumbel_softmax(x, tau=0.5, hard=True)
    assert sorted(np.unique(y.data).tolist()) == [0.0, 1.0]
    assert np.all(y.data.sum(-1) == 1.0)
    (y * Tensor(np.arange(6.0).reshape(2, 3))).sum().backward()
    assert x.grad is not None and np.all(np.isfinite(x.grad.data))
    assert np.allclose(x.grad.data.sum(-1), 0.0, atol=1e-12)  # softmax's gradient sums to 0


def test_rrelu_training_scales_only_the_non_positive_entries_within_bounds() -> None:
    x = Tensor(np.array([-1.0, 2.0, -3.0, 0.5, -0.25]))
    y = X.rrelu(x, 0.1, 0.3, training=True)
    ratio = y.data[[0, 2, 4]] / x.data[[0, 2, 4]]
    assert np.all((ratio >= 0.1) & (ratio <= 0.3)) and len(set(ratio.tolist())) == 3
    assert np.array_equal(y.data[[1, 3]], x.data[[1, 3]])


def test_adaptive_max_pool_indices_pick_the_first_maximum_and_nan() -> None:
    x = Tensor(np.array([[[1.0, 5.0, 5.0, 2.0], [0.0, np.nan, 1.0, 7.0]]]))
    out, idx = X.adaptive_max_pool1d(x, 2, return_indices=True)
    assert idx.data.tolist() == [[[1, 2], [1, 3]]]
    assert np.isnan(out.data[0, 1, 0]) and out.data[0, 0, 0] == 5.0


def test_instance_norm_running_stats_are_the_batch_mean_of_the_updates() -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 2, 6))
    rm, rv = Tensor(np.zeros(2)), Tensor(np.ones(2))
    X.instance_norm(Tensor(x), rm, rv, momentum=0.5)
    mean = x.mean(-1)
    var = x.var(-1, ddof=1)
    assert np.allclose(rm.data, (0.5 * mean).mean(0))
    assert np.allclose(rv.data, (0.5 + 0.5 * var).mean(0))


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: X.pixel_shuffle(Tensor(np.ones((1, 5, 2, 2))), 2), "not divisible by 4"),
        (lambda: X.pixel_shuffle(Tensor(np.ones((4, 2))), 2), "at least 3 dimensions"),
        (lambda: X.pixel_unshuffle(Tensor(np.ones((1, 1, 3, 4))), 2), "expects height"),
        (lambda: X.instance_norm(Tensor(np.ones((2, 3, 1)))), "more than 1 spatial element"),
        (lambda: X.local_response_norm(Tensor(np.ones(3)), 2), "Expected 3D or higher"),
        (lambda: X.adaptive_max_pool2d(Tensor(np.ones(3)), 2), "Expected 3D or 4D tensor"),
        (lambda: X.rrelu(Tensor(np.ones(2)), 0.5, 0.1), "Lower bound should be less"),
        (
            lambda: X.multi_margin_loss(Tensor(np.ones((2, 3))), Tensor(np.array([0, 3]))),
            "target out of range",
        ),
        (
            lambda: X.multi_margin_loss(Tensor(np.ones((2, 3))), Tensor(np.array([0]))),
            "Expected target size \\[2\\], but got \\[1\\]",
        ),
        (
            lambda: X.addr(Tensor(np.ones((2, 2))), Tensor(np.ones(3)), Tensor(np.ones(2))),
            "The expanded size of the tensor \\(3\\) must match the existing size \\(2\\)",
        ),
        (
            lambda: X.addbmm(
                Tensor(np.ones((2, 2))), Tensor(np.ones((3, 2, 4))), Tensor(np.ones((2, 4, 2)))
            ),
            "same number of batches, got 3 and 2",
        ),
        (lambda: X.renorm(Tensor(np.ones(2)), 2, 0, 1.0), "at least 2 dimensions"),
        (lambda: X.renorm(Tensor(np.ones((2, 2))), 2, 0, -1.0), "maxnorm to be >= 0 but got -1"),
        (lambda: X.corrcoef(Tensor(np.ones((2, 2, 2)))), "two or fewer dimensions"),
        (
            lambda: LA.solve_triangular(Tensor(np.eye(2)), Tensor(np.ones((3, 1))), upper=True),
            "Incompatible shapes of A and B for the equation AX = B \\(2x2 and 3x1\\)",
        ),
        (
            lambda: LA.solve_triangular(Tensor(np.eye(2)), Tensor(np.ones((2, 1)))),
            'missing 1 required positional arguments: "upper"',
        ),
        (
            lambda: X.cholesky_solve(Tensor(np.ones((2, 1))), Tensor(np.eye(3))),
            "each A matrix is 3 by 3 but each b matrix is 2 by 1",
        ),
        (
            lambda: X.matrix_exp(Tensor(np.ones((2, 3)))),
            "A must be batches of square matrices, but they are 2 by 3 matrices",
        ),
        (
            lambda: X.lstsq(Tensor(np.eye(2)), Tensor(np.ones((3, 1)))),
            "input.size\\(-2\\) should match other.size\\(-2\\)",
        ),
        (
            # a vector B of the wrong length: the batch dimensions fail to broadcast first
            lambda: X.lstsq(Tensor(np.ones((3, 9, 2))), Tensor(np.ones((9, 1)))),
            "The size of tensor a \\(3\\) must match the size of tensor b \\(9\\) at "
            "non-singleton dimension 0",
        ),
        (
            lambda: X.max_unpool2d(
                Tensor(np.ones((1, 1, 1, 2))), Tensor(np.array([[[[1, 16]]]])), 2
            ),
            "Found an invalid max index: 16 \\(output volumes are of size 2x4\\)",
        ),
        (
            lambda: X.max_unpool2d(
                Tensor(np.ones((1, 1, 1, 2))), Tensor(np.array([[[[1, 6]]]])), 2, None, 0, (9, 9)
            ),
            'invalid output_size "\\(9, 9\\)" \\(dim 0 must be between 0 and 4\\)',
        ),
        (
            lambda: X.embedding_bag(Tensor(np.array([1, 2])), Tensor(np.ones((3, 2)))),
            "offsets has to be a 1D Tensor but got None",
        ),
        (
            lambda: X.embedding_bag(
                Tensor(np.array([1, 2])), Tensor(np.ones((3, 2))), Tensor(np.array([1]))
            ),
            "offsets\\[0\\] has to be 0.* However, got 1\n\\[ torch.LongTensor\\{\\} \\]$",
        ),
        (
            # ATen's 0-d tensor line names the shared index type: int32 only where both are
            lambda: X.embedding_bag(
                Tensor(np.array([1, 2], np.int32)),
                Tensor(np.ones((3, 2))),
                Tensor(np.array([-2], np.int32)),
            ),
            "However, got -2\n\\[ torch.IntTensor\\{\\} \\]$",
        ),
        (
            lambda: X.embedding_bag(
                Tensor(np.array([1, 2])), Tensor(np.ones((3, 2))), Tensor(np.array([1], np.int32))
            ),
            "However, got 1\n\\[ torch.LongTensor\\{\\} \\]$",
        ),
        (
            lambda: X.embedding_bag(
                Tensor(np.array([1, 3])), Tensor(np.ones((3, 2))), Tensor(np.array([0]))
            ),
            "Index 1 of input takes value 3 which is not in the valid range \\[0, 3\\)",
        ),
        (
            lambda: X.embedding_bag(
                Tensor(np.array([1, 2])),
                Tensor(np.ones((3, 2))),
                Tensor(np.array([0])),
                per_sample_weights=Tensor(np.ones(2)),
            ),
            "only supported for mode='sum'",
        ),
        (
            lambda: X.multi_margin_loss(
                Tensor(np.ones((2, 3))),
                Tensor(np.array([0, 2])),
                weight=Tensor(np.ones(3, np.float32)),
            ),
            "expected scalar type Double but found Float",
        ),
    ],
)
def test_misuse_is_refused_in_pytorchs_words(call: Any, message: str) -> None:
    with pytest.raises(GradcliError, match=message):
        call()


def test_module_half_casts_float_parameters_and_buffers_only() -> None:
    from gradcli.core.dtypes import BF16
    from gradcli.surface.layers import BatchNorm1d

    bn = BatchNorm1d(3).half()
    assert bn._parameters["weight"].dtype == np.float16
    assert bn._buffers["running_var"].dtype == np.float16
    assert bn._buffers["num_batches_tracked"].dtype == np.int64
    bn = BatchNorm1d(3).bfloat16()
    assert bn._parameters["weight"].dtype == BF16
    assert bn._buffers["running_var"].dtype == BF16
    assert bn._buffers["num_batches_tracked"].dtype == np.int64
