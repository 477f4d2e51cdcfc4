"""The nn modules and F functions added for the coverage probe (nn.Unfold/Fold, the 3-d
paddings, InstanceNorm3d and the lazy instance norms, ...): gradients against float64 central
differences of their own forward, with respect to the input and the module's parameters, and
the facts that do not show in a printed value. PyTorch's printed values are the corpus
programs' (911-920, 935-939)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.tensor import Tensor, no_grad
from gradcli.surface import extras as X
from gradcli.surface import layers as L
from tests.helpers.gradcheck import compare, numeric_grad

RTOL = 1e-6


def _check(f: Callable[..., Any], shapes: list[tuple[int, ...]], seed: int = 0) -> None:
    """sum(f(*inputs) * w) differentiated by the engine and by central differences."""
    rng = np.random.default_rng(seed)
    arrays = [rng.uniform(-1.5, 1.5, s) for s in shapes]
    out0 = f(*(Tensor(a) for a in arrays))
    out0 = out0[0] if isinstance(out0, tuple) else out0
    w = rng.uniform(0.5, 1.5, out0.shape)

    def scalar(xs: list[np.ndarray]) -> float:
        with no_grad():
            o = f(*(Tensor(a) for a in xs))
        o = o[0] if isinstance(o, tuple) else o
        return float(np.sum(o.data.astype(np.float64) * w))

    ts = [Tensor(a.copy(), requires_grad=True) for a in arrays]
    out = f(*ts)
    out = out[0] if isinstance(out, tuple) else out
    (out * Tensor(w)).sum().backward()
    got = [t.grad.data for t in ts]
    want = numeric_grad(scalar, arrays, list(range(len(arrays))))
    compare(getattr(f, "__name__", "f"), got, want, list(range(len(arrays))), RTOL)


def _with_params(make: Callable[[], Any]) -> Callable[..., Any]:
    """f(x, *params): the module `make()` called on x with its parameters set to the given
    tensors (so that the differences run over them too)."""

    def f(x: Tensor, *params: Tensor) -> Tensor:
        m = make()
        for (name, _), p in zip(list(m.named_parameters()), params, strict=True):
            m._parameters[name] = p
        return m(x)

    return f


def _lazy_made(make: Callable[[], Any], first: tuple[int, ...]) -> Callable[[], Any]:
    """`make()` once, given a first input of shape `first` (its parameters drawn then), the
    same module for every call of the differences."""
    m = make()
    with no_grad():
        m(Tensor(np.zeros(first)))
    return lambda: m


CASES: list[tuple[str, Callable[..., Any], list[tuple[int, ...]]]] = [
    ("Unfold", lambda x: L.Unfold(2, dilation=(1, 2), padding=1, stride=(2, 1))(x), [(2, 3, 4, 5)]),
    ("Fold", lambda c: L.Fold((4, 5), (2, 3), padding=(1, 0), stride=1)(c), [(2, 12, 15)]),
    (
        "ConstantPad3d",
        lambda x: L.PADDING_MODULES["ConstantPad3d"]((1, 0, 2, 1, 0, 1), 0.5)(x),
        [(1, 2, 2, 3, 2)],
    ),
    ("ZeroPad3d", lambda x: L.PADDING_MODULES["ZeroPad3d"](1)(x), [(2, 2, 3, 2)]),
    (
        "ReflectionPad3d",
        lambda x: L.PADDING_MODULES["ReflectionPad3d"]((1, 2, 1, 0, 1, 1))(x),
        [(1, 2, 3, 2, 3)],
    ),
    (
        "ReplicationPad3d",
        lambda x: L.PADDING_MODULES["ReplicationPad3d"]((2, 0, 1, 3, 0, 2))(x),
        [(2, 2, 2, 3)],
    ),
    (
        "CircularPad3d",
        lambda x: L.PADDING_MODULES["CircularPad3d"]((1, 2, 0, 1, 2, 1))(x),
        [(1, 1, 3, 2, 3)],
    ),
    ("InstanceNorm3d", lambda x: L.InstanceNorm3d(2)(x), [(2, 2, 2, 3, 2)]),
    (
        "InstanceNorm3d_affine",
        _with_params(lambda: L.InstanceNorm3d(3, affine=True)),
        [(2, 3, 2, 2, 3), (3,), (3,)],
    ),
    ("InstanceNorm3d_unbatched", lambda x: L.InstanceNorm3d(2)(x), [(2, 2, 3, 2)]),
    ("LazyInstanceNorm1d", lambda x: L.LazyInstanceNorm1d()(x), [(3, 2, 5)]),
    ("pdist", lambda x: X.pdist(x), [(5, 3)]),
    ("pdist_p1", lambda x: X.pdist(x, 1), [(4, 3)]),
    ("pdist_p3", lambda x: X.pdist(x, 3.0), [(4, 2)]),
    ("ChannelShuffle", lambda x: L.ChannelShuffle(3)(x), [(2, 6, 2, 2)]),
    (
        "TripletMarginWithDistanceLoss_swap",
        lambda a, p, n: L.TripletMarginWithDistanceLoss(margin=2.0, swap=True)(a, p, n),
        [(4, 3), (4, 3), (4, 3)],
    ),
    (
        "triplet_margin_with_distance_loss_lambda",
        lambda a, p, n: X.triplet_margin_with_distance_loss(
            a, p, n, distance_function=lambda u, v: (u - v).pow(2).sum(-1), reduction="none"
        ),
        [(3, 2), (3, 2), (3, 2)],
    ),
    ("LPPool1d", lambda x: L.LPPool1d(2, 3, stride=2)(x), [(2, 2, 7)]),
    ("LPPool2d_p3", lambda x: L.LPPool2d(3, (2, 3), stride=1)(x.abs() + 0.5), [(1, 2, 4, 5)]),
    (
        "LPPool3d_ceil",
        lambda x: L.LPPool3d(1.5, 2, ceil_mode=True)(x.abs() + 0.5),
        [(1, 2, 3, 3, 3)],
    ),
    ("LPPool2d_inf", lambda x: L.LPPool2d(np.inf, 2)(x), [(1, 1, 4, 4)]),
    ("LPPool1d_minus_inf", lambda x: L.LPPool1d(-np.inf, 2)(x), [(2, 6)]),
    (
        "AdaptiveMaxPool3d",
        lambda x: L._adaptive_max_module("AdaptiveMaxPool3d", 3)((2, 3, 1))(x),
        [(2, 2, 3, 5, 4)],
    ),
    (
        "adaptive_max_pool3d_unbatched",
        lambda x: X.adaptive_max_pool3d(x, (2, None, 2)),
        [(2, 3, 4, 5)],
    ),
    (
        "max_unpool3d",
        lambda x: X.max_unpool3d(x, Tensor(np.array([[[[[0, 7], [18, 27]]]]])), 2, (2, 1, 3)),
        [(1, 1, 1, 2, 2)],
    ),
    (
        "LazyConvTranspose1d",
        _with_params(_lazy_made(lambda: L.LazyConvTranspose1d(2, 3, stride=2), (1, 3, 4))),
        [(2, 3, 4), (3, 2, 3), (2,)],
    ),
    (
        "LazyConvTranspose2d",
        _with_params(
            _lazy_made(
                lambda: L.LazyConvTranspose2d(
                    4, 3, stride=2, padding=1, output_padding=1, groups=2
                ),
                (1, 2, 3, 3),
            )
        ),
        [(1, 2, 3, 2), (2, 2, 3, 3), (4,)],
    ),
    (
        "LazyConvTranspose3d",
        _with_params(_lazy_made(lambda: L.LazyConvTranspose3d(1, 2, bias=False), (2, 2, 2, 2))),
        [(2, 2, 2, 3), (2, 1, 2, 2, 2)],
    ),
    ("LazyInstanceNorm2d", lambda x: L.LazyInstanceNorm2d()(x), [(2, 2, 3, 3)]),
    ("LazyInstanceNorm3d", lambda x: L.LazyInstanceNorm3d()(x), [(2, 2, 2, 2, 3)]),
]


@pytest.mark.parametrize("name, f, shapes", CASES, ids=[c[0] for c in CASES])
def test_gradients_against_central_differences(name: str, f: Any, shapes: list) -> None:
    _check(f, shapes)


def test_fold_of_unfold_counts_the_patches_and_is_the_identity_without_overlap() -> None:
    x = Tensor(np.arange(2 * 3 * 4 * 6, dtype=np.float64).reshape(2, 3, 4, 6))
    cols = L.Unfold((2, 3), stride=(2, 3))(x)
    assert cols.shape == (2, 3 * 6, 4)
    np.testing.assert_array_equal(L.Fold((4, 6), (2, 3), stride=(2, 3))(cols).data, x.data)
    ones = Tensor(np.ones((1, 1, 3, 3)))
    counts = L.Fold(3, 2)(L.Unfold(2)(ones)).data[0, 0]
    np.testing.assert_array_equal(counts, [[1, 2, 1], [2, 4, 2], [1, 2, 1]])


def test_padding_modules_keep_the_padding_as_given_and_check_dims_as_pytorch() -> None:
    pad = L.PADDING_MODULES["ZeroPad3d"]((1, 2))  # PyTorch keeps any length; F.pad checks
    assert pad.padding == (1, 2) and pad(Tensor(np.ones((1, 1, 2)))).shape == (1, 1, 5)
    with pytest.raises(GradcliError, match=r"expected 4D or 5D input \(got 3D input\)") as e:
        L.PADDING_MODULES["CircularPad3d"](1)(Tensor(np.ones((2, 2, 2))))
    assert e.value.python_class == "ValueError"
    with pytest.raises(GradcliError, match="Supported combinations for non-constant") as e:
        L.PADDING_MODULES["ReflectionPad3d"](1)(Tensor(np.ones((2, 2, 2))))
    assert e.value.python_class == "NotImplementedError" and e.value.pytorch_words


def test_a_lazy_instance_norm_becomes_its_instance_norm() -> None:
    m = L.LazyInstanceNorm2d(momentum=0.5)
    x = Tensor(np.random.default_rng(1).normal(size=(2, 3, 2, 2)))
    m(x)
    assert type(m) is L.InstanceNorm2d and m.num_features == 3
    want = 0.5 * x.data.mean(axis=(2, 3)).mean(axis=0)
    np.testing.assert_allclose(m._buffers["running_mean"].data, want, rtol=1e-12)
    bare = L.LazyInstanceNorm1d(affine=False, track_running_stats=False)
    bare(Tensor(np.ones((1, 2, 3))))
    assert type(bare) is L.InstanceNorm1d and bare.num_features == 0  # as PyTorch: nothing lazy


def test_data_parallel_passes_through_to_the_same_module() -> None:
    from gradcli.surface import nn as N

    inner = N.Linear(3, 2)
    dp = L.DataParallel(inner, device_ids=[0, 1])
    assert dp._modules["module"] is inner and dp.device_ids == []
    assert list(dp.state_dict()) == ["module.weight", "module.bias"]
    x = Tensor(np.random.default_rng(2).normal(size=(4, 3)))
    out = dp(x)
    np.testing.assert_array_equal(out.data, inner(x).data)
    out.sum().backward()
    np.testing.assert_allclose(inner._parameters["bias"].grad.data, [4.0, 4.0])
    with pytest.raises(GradcliError, match="is not a Module subclass"):
        L.DataParallel(3)


def test_adaptive_max_pool_picks_the_first_maximum_or_the_last_nan() -> None:
    nan = np.nan
    x = Tensor(np.array([[[[[1.0, 3.0], [3.0, 2.0]]]]]))
    out, idx = X.adaptive_max_pool3d(x, 1, return_indices=True)
    assert out.data.item() == 3.0 and idx.data.item() == 1  # the first of equal maxima
    y = Tensor(np.array([[[1.0, nan, 3.0, nan, 2.0]]]))
    for pool in (X.adaptive_max_pool1d, X.adaptive_max_pool2d):
        out, idx = pool(y, 1, return_indices=True)
        assert np.isnan(out.data.item()) and idx.data.item() == 3  # PyTorch's kernel: the last
    assert len(X.adaptive_max_pool1d_with_indices(y, 2)) == 2


def test_lp_pool_of_zeros_has_a_zero_gradient_not_nan() -> None:
    """PyTorch's sign(s) * relu(|s|): relu's and sign's gradients stop the infinite slope of
    the root at 0 (sign's gradient is zeros, not g * 0)."""
    z = Tensor(np.zeros((1, 1, 4)), requires_grad=True)
    X.lp_pool1d(z, 2, 2).sum().backward()
    np.testing.assert_array_equal(z.grad.data, np.zeros((1, 1, 4)))


def test_max_unpool3d_is_max_pool3d_undone() -> None:
    from gradcli.surface import nnfunctional as NF

    x = Tensor(np.random.default_rng(3).normal(size=(2, 1, 4, 2, 4)))
    y, idx = NF.max_pool3d_with_indices(x, 2)
    back = X.max_unpool3d(y, idx, 2).data
    kept = back != 0
    assert kept.sum() == y.data.size and np.all(back[kept] == x.data[kept])
    with pytest.raises(GradcliError, match=r"invalid max index: 99 \(output volumes"):
        X.max_unpool3d(y, Tensor(idx.data * 0 + 99), 2)


def test_pdist_is_the_upper_triangle_of_cdist_row_by_row() -> None:
    from gradcli.surface import linalg as LA

    x = Tensor(np.random.default_rng(4).normal(size=(5, 3)))
    for p in (0.0, 1.0, 2.0, 3.5, np.inf):
        full = LA.cdist(x, x, p, compute_mode="donot_use_mm_for_euclid_dist").data
        want = full[np.triu_indices(5, 1)]
        np.testing.assert_allclose(X.pdist(x, p).data, want, rtol=1e-12)
    assert X.pdist(Tensor(np.ones((1, 3)))).shape == (0,)
    with pytest.raises(GradcliError, match="pdist only supports 2D tensors, got: 1D"):
        X.pdist(Tensor(np.ones(3)))


def test_channel_shuffle_interleaves_the_groups() -> None:
    x = Tensor(np.arange(6.0).reshape(1, 6, 1))
    assert X.channel_shuffle(x, 2).data.ravel().tolist() == [0, 3, 1, 4, 2, 5]
    with pytest.raises(GradcliError, match="must be divisible by groups. Got 6 channels"):
        X.channel_shuffle(x, 4)


def test_instance_norms_and_lazy_norms_take_bias_false() -> None:
    m = L.InstanceNorm3d(2, affine=True, bias=False)
    assert [n for n, _ in m.named_parameters()] == ["weight"]
    lazy = L.LazyInstanceNorm1d(bias=False)
    lazy(Tensor(np.random.default_rng(5).normal(size=(2, 3, 4))))
    assert lazy._parameters["bias"] is None and lazy._parameters["weight"].shape == (3,)
    lazy_bn = L.LazyBatchNorm1d(bias=False)
    lazy_bn(Tensor(np.random.default_rng(6).normal(size=(4, 3))))
    assert lazy_bn._parameters["bias"] is None and type(lazy_bn) is L.BatchNorm1d


@pytest.mark.parametrize("upstream", [np.inf, np.nan])
def test_sign_and_copysigns_other_pass_no_inf_or_nan_back(upstream: float) -> None:
    """PyTorch's SignBackward0 and copysign's gradient for `other` are zeros, whatever the
    upstream gradient (g * 0 would be nan for an infinite or nan g)."""
    from gradcli.surface import names

    t = names.FUNCTIONS
    x = Tensor(np.array([0.0, -2.0, 3.0]), requires_grad=True)
    (t["sign"](x) * upstream).sum().backward()
    np.testing.assert_array_equal(x.grad.data, [0.0, 0.0, 0.0])
    a = Tensor(np.array([1.0, -2.0]))
    b = Tensor(np.array([0.5, -3.0]), requires_grad=True)
    (t["copysign"](a, b) * upstream).sum().backward()
    np.testing.assert_array_equal(b.grad.data, [0.0, 0.0])


@pytest.mark.parametrize(
    "make, shape, cls, words",
    [
        (lambda: L.Unfold(2), (2, 3), "IndexError", r"range of \[-2, 1\], but got 2\)"),
        (lambda: L.Unfold(2), (1, 1, 2, 3, 3), "RuntimeError", "Expected 3D or 4D"),
        (lambda: L.Fold((2, 2), 2), (4,), "RuntimeError", "Expected 2D or 3D"),
    ],
)
def test_unfold_and_fold_refuse_other_dimensions_in_pytorchs_words(make, shape, cls, words):
    with pytest.raises(GradcliError, match=words) as e:
        make()(Tensor(np.ones(shape)))
    assert (e.value.python_class or "RuntimeError") == cls


def _asm_loss(x: Tensor, *params: Tensor) -> Tensor:
    """The loss of one AdaptiveLogSoftmaxWithLoss (fixed draws), its parameters given."""
    m = _ASM()
    for (name, _), p in zip(list(m.named_parameters()), params, strict=True):
        owner = m
        *path, leaf_name = name.split(".")
        for part in path:
            owner = owner._modules[part]
        owner._parameters[leaf_name] = p
    return m(x, Tensor(np.array([0, 4, 9, 2, 7, 5])))[1]


def _ASM() -> Any:  # noqa: N802
    from gradcli.surface import random as Rnd

    Rnd.manual_seed(3)
    return L.AdaptiveLogSoftmaxWithLoss(6, 10, [3, 6], div_value=2.0, head_bias=True)


def test_adaptive_log_softmax_gradients_against_central_differences() -> None:
    shapes = [(6, 6)] + [tuple(p.shape) for p in _ASM().parameters()]
    _check(_asm_loss, shapes)


def test_adaptive_log_softmax_is_a_distribution_and_its_output_the_target_log_prob() -> None:
    m = _ASM()
    x = Tensor(np.random.default_rng(7).normal(size=(6, 6)))
    lp = m.log_prob(x).data
    np.testing.assert_allclose(np.exp(lp).sum(1), np.ones(6), rtol=1e-12)
    target = np.array([0, 4, 9, 2, 7, 5])
    out, loss = m(x, Tensor(target))
    np.testing.assert_allclose(out.data, lp[np.arange(6), target], rtol=1e-12)
    np.testing.assert_allclose(loss.data, -lp[np.arange(6), target].mean(), rtol=1e-12)
    np.testing.assert_array_equal(m.predict(x).data, lp.argmax(1))
    with pytest.raises(GradcliError, match=r"Target values should be in \[0, 9\]"):
        m(x, Tensor(np.array([0, 1, 2, 3, 4, 10])))


def test_circular_padding_checks_the_dimensions_of_its_class_not_of_its_padding() -> None:
    pad = L.PADDING_MODULES["CircularPad2d"]((1, 1))  # pads the last dim only
    assert pad(Tensor(np.ones((1, 2, 3)))).shape == (1, 2, 5)
    with pytest.raises(GradcliError, match=r"expected 3D or 4D input \(got 2D input\)"):
        pad(Tensor(np.ones((2, 3))))
