"""The declarations of the user-facing names (`gradcli.surface.declare`) are true: every
declared name is called, with a recording observer installed, on a few small inputs (the
generic calls below, and the calls of `CALLS` for names those do not fit), and the records it
applied to the tensors it differentiates through are exactly the ones it declares: a record it
declares and never applies fails, and so does one it applies and does not declare.

Nothing here infers a declaration: the product reads them (namespaces, methods, `gradcli ops`,
the README's table); this test only checks them.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core import hooks
from gradcli.core.tensor import Tensor
from gradcli.ops import REGISTRY
from gradcli.surface import names
from gradcli.surface.declare import WHERE, Name

RNG = np.random.default_rng(7)


class Recording(hooks.Observer):
    """The observer that notes the record of every operation recorded in the graph."""

    def __init__(self) -> None:
        self.applied: set[str] = set()

    def node(self, op: Any = None) -> None:
        # (a custom node, `ops.custom`, is no record: a Function's, or PyTorch's NotImplemented
        # node of a function with no derivative; a one-output one is not observed at all)
        if op.kind != "custom":
            self.applied.add(op.name)


def leaf(shape: tuple[int, ...], low: float = 0.2, high: float = 0.8) -> Tensor:
    return Tensor(RNG.uniform(low, high, shape), requires_grad=True)


def x23() -> Tensor:
    return leaf((2, 3))


def half_leaf(shape: tuple[int, ...]) -> Tensor:
    """A float16 leaf (a name composed for the dtypes its record does not compute)."""
    return Tensor(RNG.uniform(0.2, 0.8, shape).astype(np.float16), requires_grad=True)


def t23f() -> Tensor:
    """A float32 target (the float64 input's binary_cross_entropy_with_logits composes it)."""
    return Tensor(np.full((2, 3), 0.5, np.float32))


def z23() -> Tensor:
    """A complex leaf."""
    return Tensor(RNG.uniform(0.2, 0.8, (2, 3)) + 1j * RNG.uniform(0.2, 0.8, (2, 3)), True)


def x32() -> Tensor:
    return Tensor(RNG.uniform(0.2, 0.8, (2, 3)).astype(np.float32), requires_grad=True)


def spd() -> Tensor:
    a = RNG.uniform(-0.5, 0.5, (3, 3))
    return Tensor(a @ a.T + 3 * np.eye(3), requires_grad=True)


def spd4(shape: tuple[int, ...]) -> Tensor:
    """A 4 x 4 positive definite matrix as a tensor of `shape` (tensorinv, tensorsolve)."""
    a = RNG.uniform(-0.5, 0.5, (4, 4))
    return Tensor((a @ a.T + 3 * np.eye(4)).reshape(shape), requires_grad=True)


def vec() -> Tensor:
    return leaf((3,))


def image() -> Tensor:
    return leaf((1, 2, 5, 5))


def signal() -> Tensor:
    return leaf((1, 2, 6))


def volume() -> Tensor:
    return leaf((1, 2, 3, 4, 4))


def index23() -> Tensor:
    return Tensor(np.array([[1, 0, 2], [0, 1, 1]]))


def labels() -> Tensor:
    return Tensor(np.array([2, 0]))


def signs() -> Tensor:
    return Tensor(np.array([1.0, -1.0]))


def mask23() -> Tensor:
    return Tensor(np.array([[True, False, True], [False, True, False]]))


Call = tuple[Callable[[], tuple], dict[str, Any]]

# The calls every name is tried with (those that raise are skipped).
GENERIC: list[Call] = [
    (lambda: (x23(),), {}),
    (lambda: (x23(), x23()), {}),
    (lambda: (x23(), 1), {}),
    (lambda: (x23(), 0.5), {}),
    (lambda: (2.0, x23()), {}),
    (lambda: (spd(),), {}),
    (lambda: (spd(), spd()), {}),
    (lambda: (vec(),), {}),
    (lambda: (vec(), vec()), {}),
    (lambda: ([x23(), x23()],), {}),
    (lambda: (x23(), 1, index23()), {}),
    (lambda: (x23(), 1, index23(), x23()), {}),
    (lambda: (x23(),), {"dim": 1}),
    (lambda: (image(),), {}),
    (lambda: (x32(),), {}),
]


# Calls for the names the generic ones do not fit, or whose other forms apply other records,
# by qualified name (`torch.div`, `Tensor.flip`); for a module (`nn.Conv2d`), the calls of the
# module made with `CONSTRUCT`, instead of the generic ones.
def t(*values: Any) -> Tensor:
    return Tensor(np.array(values))


def ctc_in() -> Tensor:
    return leaf((5, 2, 4), -3.0, -0.1)


def ctc_targets() -> Tensor:
    return Tensor(np.array([[1, 2, 2], [3, 1, 0]]))


def one(*make: Callable[[], Any], **kwargs: Any) -> list[Call]:
    """One call: its arguments made fresh from `make`, and keyword arguments."""
    return [(lambda: tuple(m() if callable(m) else m for m in make), kwargs)]


H3 = one(*(lambda: half_leaf((2, 3)),) * 3)  # three float16 operands


def c(v: Any) -> Callable[[], Any]:
    """A constant argument (a value `one` would otherwise call)."""
    return lambda: v


def vec2() -> Tensor:
    return leaf((2,))


def square() -> Tensor:
    return leaf((2, 2))


CALLS: dict[str, list[Call]] = {
    # eig / eigvals record their gradient for complex matrices only (real ones: values alone)
    "linalg.eig": one(lambda: Tensor(np.array([[1 + 1j, 2], [0.5j, -1]]), requires_grad=True)),
    "linalg.eigvals": one(lambda: Tensor(np.array([[1 + 1j, 2], [0.5j, -1]]), requires_grad=True)),
    "torch.polygamma": one(2, x23),
    "torch.float_power": one(x32, 2),
    # fmax / fmin: their records on one float dtype, `where` on two (float64, float16)
    "torch.fmax": one(x23, x23) + one(x23, lambda: Tensor(np.full((2, 3), 0.5, dtype=np.float16))),
    "torch.fmin": one(x23, x23) + one(x23, lambda: Tensor(np.full((2, 3), 0.5, dtype=np.float16))),
    "torch.div": one(x23, x23, rounding_mode="floor"),
    "torch.lerp": one(x23, x23, 0.5) + one(x23, x23, x23),
    "Tensor.to": one(x23, c(np.float32)),
    # resize_ is for tensors that do not require grad (PyTorch refuses the others)
    "Tensor.resize_": one(lambda: Tensor(RNG.uniform(0.2, 0.8, (2, 3))), 3, 2),
    "Tensor.resize_as_": one(lambda: Tensor(RNG.uniform(0.2, 0.8, (2, 3))), vec),
    "Tensor.set_": one(
        lambda: Tensor(RNG.uniform(0.2, 0.8, (2, 3))), lambda: Tensor(RNG.uniform(0.2, 0.8, (3,)))
    ),
    "Tensor.type": one(x23, "torch.FloatTensor"),
    # the complex functions: of complex tensors (of a real one, real and conj are the tensor)
    "torch.real": one(z23),
    "torch.imag": one(z23),
    "torch.conj": one(z23),
    "torch.conj_physical": one(z23),
    "torch.view_as_real": one(z23),
    "torch.view_as_complex": one(lambda: leaf((3, 2))),
    "Tensor.contiguous": one(lambda: x23().t()),
    "torch.swapaxes": one(x23, 0, 1),
    "Tensor.expand": one(lambda: leaf((3, 1)), 3, 4),
    "Tensor.item": one(lambda: leaf(())),
    "Tensor.fill_": one(x23, lambda: leaf(())),
    "torch.fill": one(x23, lambda: leaf(())) + one(x23, 0.5),
    "Tensor.new_full": one(x23, (2, 2), 1.0),
    "Tensor.permute": one(x23, 1, 0),
    "Tensor.repeat": one(x23, 2, 1),
    "Tensor.reshape": one(x23, 3, 2),
    "Tensor.resize": one(x23, 3, 2),
    "Tensor.index_add_": one(x23, 1, lambda: t(0, 2), square),
    "Tensor.index_reduce_": one(x23, 1, lambda: t(0, 2), square, "prod"),
    "torch.index_reduce": one(x23, 1, lambda: t(0, 2), square, "mean", include_self=False),
    "torch.scatter": one(x23, 1, lambda: t([0, 1, 2], [2, 1, 0]), x23, reduce="add"),
    "Tensor.scatter_": one(x23, 1, lambda: t([0, 1, 2], [2, 1, 0]), x23, reduce="multiply"),
    "torch.scatter_reduce": one(x23, 1, lambda: t([0, 1, 1], [2, 1, 0]), x23, "amax"),
    "Tensor.scatter_reduce_": one(x23, 0, lambda: t([0, 1, 1], [1, 1, 0]), x23, "sum"),
    "Tensor.index_copy_": one(x23, 1, lambda: t(0, 2), square),
    "Tensor.index_fill_": one(x23, 1, lambda: t(0, 2), -1.0),
    "Tensor.masked_fill_": one(x23, mask23, 0.0),
    "F.avg_pool2d": one(image, 2) + one(lambda: leaf((2, 5, 5)), 2),
    "F.fold": one(lambda: leaf((1, 4, 4)), (3, 3), 2),
    "F.unfold": one(image, 2),
    "F.glu": one(lambda: leaf((2, 4))),
    "F.ctc_loss": one(ctc_in, ctc_targets, c([5, 4]), c([3, 2]))
    + one(ctc_in, ctc_targets, c([5, 1]), c([3, 2]), reduction="sum", zero_infinity=True)
    + one(lambda: leaf((5, 4), -3.0, -0.1), c(t(1, 2)), c([5]), c([2]), reduction="none"),
    "F.pad": one(x23, (1, 1)) + one(x23, (1, 1), mode="reflect"),
    "linalg.multi_dot": one(lambda: [spd(), spd(), spd()]),
    "linalg.tensorinv": one(lambda: spd4((2, 2, 2, 2)), ind=2),
    "linalg.tensorsolve": one(lambda: spd4((2, 2, 4)), lambda: leaf((2, 2)))
    + one(lambda: spd4((4, 2, 2)), lambda: leaf((2, 2)), dims=(0,)),
    "linalg.solve_triangular": one(spd, lambda: leaf((3, 2)), upper=False),
    "linalg.ldl_solve": one(
        spd, lambda: Tensor(np.array([1, 2, 3], np.int32)), lambda: leaf((3, 2))
    ),
    "linalg.lu_solve": one(
        spd, lambda: Tensor(np.array([2, 2, 3], np.int32)), lambda: leaf((3, 2))
    ),
    "torch.lu_solve": one(lambda: leaf((3, 2)), spd, lambda: Tensor(np.array([2, 2, 3], np.int32))),
    "linalg.householder_product": one(lambda: leaf((3, 2)), lambda: leaf((2,))),
    "torch.orgqr": one(lambda: leaf((3, 2)), lambda: leaf((2,))),
    "torch.lu_unpack": one(spd, lambda: Tensor(np.array([2, 2, 3], np.int32)))
    + one(lambda: leaf((3, 2)), lambda: Tensor(np.array([3, 2], np.int32))),
    "linalg.norm": one(spd, "nuc"),
    "linalg.matrix_norm": one(spd, 2),
    "F.l1_loss": one(x23, x23, reduction="sum"),
    # (p = 1, 2, inf: ATen's kernels, one record; another p: cdist's, the pairs read)
    "torch.pdist": one(x23) + one(x23, 3.0),
    "F.binary_cross_entropy_with_logits": one(x23, x23, reduction="sum")
    + one(x23, x23, pos_weight=Tensor(np.full((3,), 2.0, dtype=np.float32)))
    # (a target of another float dtype: the record too, the loss in the target's dtype)
    + one(
        x23, lambda: Tensor(np.full((2, 3), 0.5, np.float32)), pos_weight=Tensor(np.full((3,), 2.0))
    )
    + one(x23, t23f, reduction="sum")
    # (an integer weight: the composition's path)
    + one(x23, x23, weight=Tensor(np.array([1, 2, 3])))
    + one(
        x23,
        x23,
        weight=Tensor(np.array([1, 2, 3])),
        pos_weight=Tensor(np.full((3,), 2.0)),
        reduction="sum",
    ),
    # (the module's forward: the record; with an integer weight, composed)
    "nn.BCEWithLogitsLoss": one(x23, x23) + one(x23, t23f),
    "torch.binary_cross_entropy_with_logits": one(x23, x23, None, None, 2)
    + one(
        x23, lambda: Tensor(np.full((2, 3), 0.5, np.float32)), None, Tensor(np.full((3,), 2.0)), 1
    )
    # (an integer weight: the composition's path)
    + one(x23, x23, Tensor(np.array([1, 2, 3])), None, 1)
    + one(x23, x23, Tensor(np.array([1, 2, 3])), Tensor(np.full((3,), 2.0)), 2)
    + one(x23, t23f, None, None, 2),
    "F.cross_entropy": one(x23, labels),
    "F.linear": one(x23, lambda: leaf((4, 3)), lambda: leaf((4,))),
    "torch.segment_reduce": one(x23, "max", lengths=Tensor(np.array([1, 1])))
    + one(lambda: leaf((3, 2)), "mean", offsets=Tensor(np.array([0, 2, 3]))),
    "F.linear_cross_entropy": one(x23, lambda: leaf((4, 3)), labels, linear_bias=leaf((4,)))
    + one(x23, lambda: leaf((4, 3)), lambda: leaf((2, 4)))
    + one(x23, lambda: leaf((4, 2, 3)), lambda: Tensor(np.array([[2, 0], [1, 3]])))
    + one(x23, lambda: leaf((4, 3)), labels, label_smoothing=0.1),
    "torch.where": one(mask23, x23, x23),
    "torch.broadcast_tensors": one(x23, lambda: leaf((3, 1, 1))),
    "torch.meshgrid": one(lambda: leaf((3,)), lambda: leaf((2,)), indexing="xy"),
    "torch.LongTensor": one([1, 2]),
    "torch.IntTensor": one([1, 2]),
    "torch.BoolTensor": one([True]),
    "torch.ByteTensor": one([1, 2]),
    "torch.ShortTensor": one([1, 2]),
    "torch.CharTensor": one([1, 2]),
    "torch.HalfTensor": one([1.5, 2.0]),
    "torch.BFloat16Tensor": one([1.5, 2.0]),
    "torch.Generator": one(),
    "torch.addmm": one(square, x23, lambda: leaf((3, 2)))
    + one(square, x23, lambda: leaf((3, 2)), beta=0.5, alpha=2.0),
    "torch.addmv": one(lambda: leaf((2,)), x23, vec)
    + one(lambda: leaf((2,)), x23, vec, alpha=3, beta=0.5),
    "torch.arange": one(3),
    "torch.range": one(1, 3),
    "torch.baddbmm": one(lambda: leaf((1, 2, 2)), lambda: leaf((1, 2, 3)), lambda: leaf((1, 3, 2)))
    + one(square, lambda: leaf((1, 2, 3)), lambda: leaf((1, 3, 2)), beta=2.0, alpha=0.5),
    "torch.bmm": one(lambda: leaf((1, 2, 3)), lambda: leaf((1, 3, 2))),
    "torch.broadcast_to": one(vec, (2, 3)),
    "torch.conv1d": one(signal, lambda: leaf((3, 2, 2))),
    "torch.conv2d": one(image, lambda: leaf((3, 2, 2, 2))),
    "torch.conv_transpose1d": one(signal, lambda: leaf((2, 3, 2))),
    "F.interpolate": one(image, scale_factor=2) + one(image, size=(3, 2), mode="bilinear"),
    "F.upsample": one(image, scale_factor=2) + one(image, scale_factor=1.5, mode="bicubic"),
    "F.upsample_nearest": one(image, scale_factor=2),
    "F.grid_sample": one(image, lambda: leaf((1, 2, 3, 2)) * 0.5, align_corners=False),
    "F.affine_grid": one(lambda: leaf((1, 2, 3)), (1, 1, 2, 3), align_corners=False),
    "torch.conv_transpose2d": one(image, lambda: leaf((2, 3, 2, 2))),
    "torch.conv3d": one(volume, lambda: leaf((3, 2, 2, 2, 2))),
    "torch.conv_transpose3d": one(volume, lambda: leaf((2, 3, 2, 2, 2))),
    "torch.max_pool3d": one(volume, 2) + one(lambda: leaf((2, 4, 4, 4)), 2),
    "F.avg_pool3d": one(volume, 2),
    "F.adaptive_avg_pool3d": one(volume, (2, 3, 2))
    + one(volume, 1)
    + one(lambda: leaf((1, 1, 9, 9, 9)), 2)  # windows over 64 elements: a sum
    + one(lambda: half_leaf((1, 1, 3, 5, 4)), 2)  # (half: composed)
    + one(lambda: half_leaf((1, 1, 9, 9, 9)), 2),
    "torch.cosine_embedding_loss": one(x23, x23, signs) + one(x23, x23, signs, 0.0, 1),
    "torch.kl_div": one(x23, x23, 1),
    "torch.poisson_nll_loss": one(x23, x23, True, False, 1e-8, 1),
    "torch.hinge_embedding_loss": one(x23, x23, 1.0, 1),
    "F.cosine_embedding_loss": one(x23, x23, signs),
    "F.gaussian_nll_loss": one(x23, x23, x23),
    "F.instance_norm": one(image)
    + one(lambda: leaf((2, 2, 3)), None, None, lambda: leaf((2,)), lambda: leaf((2,))),
    "torch.instance_norm": one(image, None, None, None, None, True, 0.1, 1e-5, False)
    + one(
        lambda: leaf((2, 2, 3)),
        lambda: leaf((2,)),
        lambda: leaf((2,)),
        None,
        None,
        True,
        0.1,
        1e-5,
        False,
    ),
    "F.local_response_norm": one(image, 2),
    "torch.adaptive_max_pool1d": one(signal, 2),
    "F.adaptive_max_pool2d": one(image, 2),
    "F.fractional_max_pool2d": one(image, 2, 3),
    "F.fractional_max_pool2d_with_indices": one(image, 3, 2),
    "F.fractional_max_pool3d": one(volume, (1, 2, 2), 2),
    "F.fractional_max_pool3d_with_indices": one(volume, 2, (1, 2, 2)),
    "F.adaptive_max_pool3d": one(volume, 2),
    "F.upsample_bilinear": one(image, None, 2),
    "F.channel_shuffle": one(lambda: leaf((1, 4, 2, 3)), 2),
    "F.triplet_margin_with_distance_loss": one(x23, x23, x23),
    "F.adaptive_max_pool2d_with_indices": one(image, 2),
    "F.adaptive_max_pool3d_with_indices": one(volume, (1, 2, 3)),
    "F.max_pool3d_with_indices": one(volume, 2),
    "F.max_unpool3d": one(
        lambda: leaf((1, 1, 1, 1, 2)), lambda: Tensor(np.array([[[[[1, 7]]]]])), 2
    ),
    # (a norm of +-inf is the max pooling of |x|, or minus that of -|x|)
    "F.lp_pool1d": one(signal, 2, 3) + one(signal, np.inf, 3) + one(signal, -np.inf, 3),
    "F.lp_pool2d": one(image, 3, 2) + one(image, np.inf, 2) + one(image, -np.inf, 2),
    "F.lp_pool3d": one(volume, 1.5, 2) + one(volume, np.inf, 2) + one(volume, -np.inf, 2),
    "torch.pixel_shuffle": one(lambda: leaf((1, 4, 2, 3)), 2),
    "torch.pixel_unshuffle": one(lambda: leaf((1, 1, 4, 2)), 2),
    "F.gumbel_softmax": one(x23) + one(x23, hard=True),
    "F.multi_margin_loss": one(x23, labels) + one(x23, labels, p=2),
    "F.soft_margin_loss": one(x23, lambda: Tensor(np.array([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]]))),
    "torch.cholesky_solve": one(lambda: leaf((3, 2)), spd),
    "torch.cov": one(x23) + one(x23, aweights=Tensor(np.array([0.5, 1.0, 2.0]))),
    "linalg.matrix_rank": one(spd),
    "linalg.cond": one(spd),
    "torch.histogram": one(lambda: Tensor(np.array([0.5, 1.0, 2.0])), 2),
    "torch.matrix_exp": one(square) + one(lambda: Tensor(np.full((2, 2), 3.0), requires_grad=True)),
    "linalg.lstsq": one(lambda: leaf((3, 2)), lambda: leaf((3, 1)))
    + one(lambda: leaf((3, 2)), lambda: leaf((3,))),
    "F.multilabel_margin_loss": one(x23, lambda: Tensor(np.array([[2, -1, 0], [0, 1, -1]])))
    + one(x23, lambda: Tensor(np.array([[2, -1, 0], [0, 1, -1]])), reduction="none"),
    "F.max_unpool1d": one(lambda: leaf((1, 2, 2)), lambda: Tensor(np.array([[[1, 2], [0, 3]]])), 2),
    "F.max_unpool2d": one(lambda: leaf((1, 1, 1, 2)), lambda: Tensor(np.array([[[[1, 6]]]])), 2),
    "F.embedding_bag": one(lambda: t(1, 3, 0, 2), lambda: leaf((4, 3)), lambda: t(0, 1))
    + one(lambda: t(1, 3), lambda: leaf((4, 3)), lambda: t(0), None, 2, False, "sum", False, vec2)
    + one(lambda: t(1, 3), lambda: leaf((4, 3)), lambda: t(0), None, 2, False, "max"),
    "torch.addr": one(square, lambda: leaf((2,)), lambda: leaf((2,)))
    + one(square, lambda: leaf((2,)), lambda: leaf((2,)), beta=0.5, alpha=2.0),
    "torch.addbmm": one(square, lambda: leaf((2, 2, 3)), lambda: leaf((2, 3, 2)))
    + one(square, lambda: leaf((2, 2, 3)), lambda: leaf((2, 3, 2)), beta=0.5, alpha=2.0),
    "torch.renorm": one(x23, 2, 0, 0.5),
    **{
        f"Tensor.{name}{inplace}": one(x23, x23, x23)
        + one(x23, x23, x23, value=0.5)
        + one(x23, lambda: half_leaf((2, 3)), x23)
        + H3
        + one(x23, 0.5, x23, x23)
        for name in ("addcmul", "addcdiv")
        for inplace in ("", "_")
    },
    # the methods, and PyTorch's deprecated overloads with a leading beta (and alpha)
    **{
        f"Tensor.{name}{inplace}": one(square, a, b)
        + one(square, a, b, beta=0.5, alpha=2.0)
        + one(square, 0.5, a, b)
        + one(square, 0.5, 2.0, a, b)
        for name, a, b in (
            ("addmm", x23, lambda: leaf((3, 2))),
            ("addr", lambda: leaf((2,)), lambda: leaf((2,))),
            ("addbmm", lambda: leaf((2, 2, 3)), lambda: leaf((2, 3, 2))),
        )
        for inplace in ("", "_")
    },
    **{
        f"Tensor.{name}{inplace}": one(first, a, b)
        + one(first, 2.0, a, b)
        + one(first, a, b, alpha=0.5)  # (alpha != 1: the scaled product's record)
        for name, first, a, b in (
            ("addmv", lambda: leaf((2,)), x23, vec),
            (
                "baddbmm",
                lambda: leaf((1, 2, 2)),
                lambda: leaf((1, 2, 3)),
                lambda: leaf((1, 3, 2)),
            ),
        )
        for inplace in ("", "_")
    },
    "torch.corrcoef": one(x23),
    "torch.dropout": one(x23, 0.5, True),
    # rrelu: evaluation is leaky_relu with the mean slope; training its draws (rrelu_noise)
    "torch.rrelu": one(x23) + one(x23, 0.1, 0.3, True),
    "torch.rrelu_": one(x23) + one(x23, 0.1, 0.3, True),
    "torch.einsum": one("ij,jk->ik", x23, lambda: leaf((3, 2))),
    "F.embedding": one(lambda: t(1, 0), lambda: leaf((4, 3))),
    "torch.embedding": one(lambda: leaf((4, 3)), lambda: t(1, 0)),
    "torch.expand": one(lambda: leaf((3, 1)), 3, 4),
    "torch.eye": one(3),
    "torch.hann_window": one(4),
    "torch.hamming_window": one(4, False, 0.5, 0.5),
    "torch.blackman_window": one(5),
    "torch.bartlett_window": one(5),
    "torch.kaiser_window": one(5, True, 6.0),
    "torch.tril_indices": one(3, 4),
    "torch.triu_indices": one(3, 4, 1),
    "torch.flip": one(x23, [0]) + one(x23, (0, 1)),
    "Tensor.flip": one(x23, []),  # (no dims: a copy; none at all is the parser's TypeError)
    "torch.from_numpy": one(lambda: np.ones(3)),
    "torch.full": one((2,), 1.0),
    "torch.get_rng_state": one(),
    "torch.index_add": one(x23, 1, lambda: t(0, 2), square),
    "torch.index_copy": one(x23, 1, lambda: t(0, 2), square),
    "torch.take_along_dim": one(lambda: leaf((2, 1)), lambda: Tensor(np.array([[0, 1, 1]])), 0)
    + one(x23, lambda: t(4)),
    "torch.index_fill": one(x23, 1, lambda: t(0, 2), -1.0),
    "torch.index_select": one(x23, 1, lambda: t(0, 2)),
    "torch.initial_seed": one(),
    "torch.layer_norm": one(x23, (3,)) + one(x23, (3,), vec, vec, 1e-5, True),
    "F.layer_norm": one(x23, (3,)) + one(x23, (3,), vec, vec),
    "torch.is_nonzero": one(lambda: t(1.5)),
    "torch.index_put": one(x23, lambda: (t(1, 0),), lambda: leaf((2, 3)))
    + one(x23, lambda: (t(1, 1), t(0, 2)), lambda: leaf((2,)), accumulate=True),
    "Tensor.index_put_": one(x23, lambda: (t(1, 0),), lambda: leaf((2, 3))),
    "torch.put": one(x23, lambda: t(4, -1, 0), lambda: leaf((3,)))
    + one(x23, lambda: t(1, 1), lambda: leaf((2,)), accumulate=True),
    "Tensor.put_": one(x23, lambda: t([0, 5]), lambda: leaf((2,))),
    "torch.nextafter": one(x23, lambda: leaf((2, 3))),
    "Tensor.nextafter_": one(x23, lambda: leaf((3,))),
    "torch.masked_scatter": one(x23, lambda: t(True, False, True), lambda: leaf((2, 3))),
    "torch.select_scatter": one(x23, lambda: leaf((3,)), c(0), c(1)),
    "torch.slice_scatter": one(x23, lambda: leaf((2, 2)), c(1), c(0), c(3), c(2)),
    "torch.diagonal_scatter": one(x23, lambda: leaf((2,)), c(0), c(0), c(1)),
    "Tensor.masked_scatter_": one(x23, lambda: t(True, False, True), lambda: leaf((2, 3))),
    "torch.scalar_tensor": one(c(2.5)),
    "torch.gradient": one(x23)
    + one(x23, dim=1, edge_order=2)
    + one(x23, spacing=[leaf((2,)), leaf((3,))])
    + one(x23, spacing=[leaf((3,))], edge_order=2, dim=1),
    "torch.unravel_index": one(lambda: t(4, 1), c((3, 2))),
    "torch.dsplit": one(volume, [1]),
    "torch.rms_norm": one(x23, (3,)) + one(x23, (3,), vec),
    "F.batch_norm": one(image, None, None, lambda: leaf((2,)), lambda: leaf((2,)), True),
    "torch.batch_norm": one(
        image, lambda: leaf((2,)), lambda: leaf((2,)), None, None, True, 0.1, 1e-5, True
    ),
    "torch.linspace": one(0, 1, 5),
    "torch.manual_seed": one(0),
    "torch.margin_ranking_loss": one(lambda: leaf((2,)), lambda: leaf((2,)), signs)
    + one(lambda: leaf((2,)), lambda: leaf((2,)), signs, 0.0, 1),
    "F.margin_ranking_loss": one(lambda: leaf((2,)), lambda: leaf((2,)), signs),
    "torch.masked_fill": one(x23, mask23, 0.0),
    "torch.masked_select": one(x23, mask23),
    "torch.matrix_power": one(spd, 2) + one(spd, -1),
    "torch.max_pool2d": one(image, 2) + one(lambda: leaf((2, 5, 5)), 2),
    "F.max_pool2d_with_indices": one(image, 2),
    "torch.bilinear": one(x23, lambda: leaf((2, 2)), lambda: leaf((4, 3, 2)), lambda: leaf((4,))),
    "torch.mv": one(x23, vec),
    "torch.narrow": one(x23, 1, 0, 2),
    "torch.narrow_copy": one(x23, 1, 0, 2),
    "torch.select_copy": one(x23, 0, 1),
    "torch.permute_copy": one(x23, (1, 0)),
    "torch.transpose_copy": one(x23, 0, 1),
    "torch.split_with_sizes_copy": one(x23, [1, 1]),
    "torch.as_strided_copy": one(x23, (2, 2), (1, 2), 1),
    "torch.view_as_real_copy": one(lambda: Tensor(np.array([1 + 1j, 2j]), requires_grad=True)),
    "torch.view_as_complex_copy": one(lambda: leaf((3, 2))),
    "torch.view_copy": one(x23, (3, 2)),
    "torch.expand_copy": one(lambda: leaf((1, 3)), (2, 3)),
    "torch.unfold_copy": one(x23, 1, 2, 1),
    "Tensor.unfold": one(x23, 1, 2, 1),
    "torch.as_strided": one(x23, (2, 2), (1, 2), 1),
    "Tensor.fill_diagonal_": one(lambda: x23() * 1, 0.5),
    "F.nll_loss": one(x23, labels),
    "F.one_hot": one(lambda: t(0, 2), 3),
    "torch.ones": one(2, 3),
    "torch.zeros": one(2, 3),
    "torch.empty": one(2, 3),
    "torch.empty_strided": one((2, 3), (1, 2)),
    "torch.empty_permuted": one((2, 3), (1, 0)),
    "Tensor.new_empty_strided": one(x23, (2, 3), (1, 2)),
    "torch.nonzero_static": one(x23, size=2),
    "torch.histogramdd": one(x23, bins=2),
    "torch.as_strided_scatter": one(x23, lambda: t(1.0, 2.0), (2,), (2,)),
    "torch.rand": one(2, 3),
    "torch.randn": one(2, 3),
    "torch.permute": one(x23, (1, 0)),
    "torch.randint": one(0, 5, (3,)),
    "torch.randperm": one(4),
    "Tensor.register_hook": one(x23, c(lambda g: g)),
    "Tensor.type_as": one(x23, lambda: Tensor(np.ones(1, np.float32))),
    "Tensor.transpose_": one(x23, 0, 1),
    "Tensor.swapaxes_": one(x23, 0, 1),
    "torch.logspace": one(0, 1, 5),
    # (float16 operands: the composition of mul and add; mixed ones cast to one dtype first)
    "torch.addcmul": one(x23, x23, x23) + one(x23, lambda: half_leaf((2, 3)), x23) + H3,
    "torch.addcdiv": one(x23, x23, x23) + one(x23, lambda: half_leaf((2, 3)), x23) + H3,
    "torch.atleast_1d": one(lambda: leaf(())),
    "torch.movedim": one(x23, 0, 1),
    "torch.unflatten": one(x23, 1, (3, 1)),
    "torch.select": one(x23, 0, 1),
    "torch.bitwise_and": one(lambda: t(1, 2), lambda: t(3, 4)),
    "torch.gcd": one(lambda: t(4, 6), lambda: t(6, 9)),
    "torch.lcm": one(lambda: t(4, 6), lambda: t(6, 9)),
    "torch.split_with_sizes": one(x23, [1, 1]),
    "torch.bitwise_or": one(lambda: t(1, 2), lambda: t(3, 4)),
    "torch.bitwise_xor": one(lambda: t(1, 2), lambda: t(3, 4)),
    "torch.bitwise_left_shift": one(lambda: t(1, 2), lambda: t(3, 4)),
    "torch.bitwise_right_shift": one(lambda: t(1, 2), lambda: t(3, 4)),
    "torch.bitwise_not": one(lambda: t(1, 2)),
    "torch.bincount": one(lambda: t(0, 1, 1)) + one(lambda: t(0, 1, 1), lambda: leaf((3,))),
    "torch.broadcast_shapes": one((2, 1), (1, 3)),
    "torch.iinfo": one(c(np.dtype(np.int32))),
    "Tensor.register_post_accumulate_grad_hook": one(x23, c(lambda p: None)),
    "torch.alpha_dropout": one(x23, 0.5, True),
    "torch.feature_alpha_dropout": one(lambda: leaf((2, 3, 2)), 0.5, True),
    "F.alpha_dropout": one(x23, 0.5, True),
    "F.feature_alpha_dropout": one(lambda: leaf((2, 3, 2)), 0.5, True),
    "torch.prelu": one(x23, lambda: leaf((3,))),
    "torch.adaptive_avg_pool1d": one(signal, 4)
    + one(signal, 1)
    + one(lambda: leaf((1, 1, 200)), 2)
    + one(lambda: half_leaf((1, 2, 7)), 3)
    + one(lambda: half_leaf((1, 1, 200)), 2),
    "torch.adaptive_avg_pool2d": one(image, (3, 2))
    + one(image, 1)
    + one(lambda: leaf((1, 1, 20, 20)), 2)
    + one(lambda: half_leaf((1, 2, 5, 7)), 3)
    + one(lambda: half_leaf((1, 1, 20, 20)), 2),
    "torch.reshape": one(x23, (3, 2)),
    "torch.seed": one(),
    "torch.set_rng_state": one(lambda: names.FUNCTIONS["get_rng_state"]()),
    "torch.take": one(x23, lambda: t(0, 4)),
    "torch.threshold": one(x23, 0.5, 0.0),
    "F.threshold": one(x23, 0.5, 0.0) + one(x23, 0.5, 0.0, False),
    "torch.threshold_": one(x23, 0.5, 0.0),
    "torch.transpose": one(x23, 0, 1),
    "torch.triplet_margin_loss": one(x23, x23, x23) + one(x23, x23, x23, 1.0, 2.0, 1e-6, False, 1),
    "F.triplet_margin_loss": one(x23, x23, x23),
    "torch.view": one(x23, 3, 2),
    # modules: the calls of the module nn.X(*CONSTRUCT[...])
    "nn.AvgPool1d": one(signal),
    "nn.AvgPool2d": one(image) + one(lambda: leaf((2, 5, 5))),
    "nn.Bilinear": one(x23, x23),
    "nn.PReLU": one(x23),
    "nn.AdaptiveAvgPool1d": one(signal)
    + one(lambda: leaf((1, 1, 400)))
    + one(lambda: half_leaf((1, 2, 7)))
    + one(lambda: half_leaf((1, 1, 400))),
    "nn.AdaptiveAvgPool2d": one(image)
    + one(lambda: leaf((1, 1, 30, 30)))
    + one(lambda: half_leaf((1, 2, 5, 7)))
    + one(lambda: half_leaf((1, 1, 30, 30))),
    "nn.AdaptiveAvgPool3d": one(volume)
    + one(lambda: leaf((1, 1, 10, 12, 10)))
    + one(lambda: half_leaf((1, 1, 3, 5, 4)))
    + one(lambda: half_leaf((1, 1, 10, 12, 10))),
    "nn.AvgPool3d": one(volume),
    "nn.MaxPool3d": one(volume),
    "nn.Conv3d": one(volume),
    "nn.ConvTranspose3d": one(volume),
    "nn.ConstantPad1d": one(signal),
    "nn.ZeroPad1d": one(signal),
    "nn.ReflectionPad1d": one(signal),
    "nn.ReplicationPad1d": one(signal),
    "nn.CircularPad1d": one(signal),
    "nn.ConstantPad2d": one(image),
    "nn.ZeroPad2d": one(image),
    "nn.ReflectionPad2d": one(image),
    "nn.ReplicationPad2d": one(image),
    "nn.CircularPad2d": one(image),
    "nn.Conv1d": one(signal),
    "nn.Conv2d": one(image),
    "nn.ConvTranspose1d": one(signal),
    "nn.ConvTranspose2d": one(image),
    "nn.CosineEmbeddingLoss": one(x23, x23, signs),
    "nn.GaussianNLLLoss": one(x23, x23, x23),
    "nn.InstanceNorm1d": one(lambda: leaf((2, 2, 3))),
    "nn.InstanceNorm2d": one(image),
    "nn.InstanceNorm3d": one(volume),
    "nn.LazyInstanceNorm1d": one(lambda: leaf((2, 2, 3))),
    "nn.LazyInstanceNorm2d": one(lambda: leaf((2, 2, 3, 3))),
    "nn.LazyInstanceNorm3d": one(lambda: leaf((2, 2, 2, 2, 3))),
    "nn.Unfold": one(image),
    "nn.Fold": one(lambda: leaf((1, 4, 4))),
    "nn.LocalResponseNorm": one(image),
    "nn.AdaptiveMaxPool1d": one(signal),
    "nn.AdaptiveMaxPool2d": one(image),
    "nn.FractionalMaxPool2d": one(image),
    "nn.FractionalMaxPool3d": one(volume),
    "nn.PixelShuffle": one(lambda: leaf((1, 4, 2, 3))),
    "nn.PixelUnshuffle": one(lambda: leaf((1, 1, 4, 2))),
    "nn.MultiMarginLoss": one(x23, labels),
    "nn.SoftMarginLoss": one(x23, lambda: Tensor(np.array([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]]))),
    "nn.MultiLabelMarginLoss": one(x23, lambda: Tensor(np.array([[2, -1, 0], [0, 1, -1]]))),
    "nn.MaxUnpool1d": one(lambda: leaf((1, 2, 2)), lambda: Tensor(np.array([[[1, 2], [0, 3]]]))),
    "nn.MaxUnpool2d": one(lambda: leaf((1, 1, 1, 2)), lambda: Tensor(np.array([[[[1, 6]]]]))),
    "nn.MaxUnpool3d": one(lambda: leaf((1, 1, 1, 1, 2)), lambda: Tensor(np.array([[[[[1, 7]]]]]))),
    "nn.AdaptiveMaxPool3d": one(volume),
    "nn.ChannelShuffle": one(lambda: leaf((1, 4, 2, 3))),
    "nn.AdaptiveLogSoftmaxWithLoss": one(lambda: leaf((4, 8)), lambda: t(0, 4, 9, 2)),
    "nn.LinearCrossEntropyLoss": one(x23, labels) + one(x23, lambda: leaf((2, 4))),
    "nn.TripletMarginWithDistanceLoss": one(x23, x23, x23),
    "nn.LPPool1d": one(signal),
    "nn.LPPool2d": one(image),
    "nn.LPPool3d": one(volume),
    "nn.EmbeddingBag": one(lambda: t(1, 3, 0, 2), lambda: t(0, 1)),
    "nn.Embedding": one(lambda: t(1, 3)),
    "nn.GLU": one(lambda: leaf((2, 4))),
    "nn.GroupNorm": one(image),
    "nn.BatchNorm1d": one(lambda: leaf((4, 2))),
    "nn.BatchNorm2d": one(image),
    "nn.BatchNorm3d": one(lambda: leaf((2, 2, 2, 2, 2))),
    "nn.LayerNorm": one(x23),
    "nn.RMSNorm": one(x23),
    "nn.Linear": one(x23),
    "nn.LazyLinear": one(x23),
    "nn.LazyConv1d": one(signal),
    "nn.LazyConv2d": one(image),
    "nn.LazyConv3d": one(volume),
    "nn.LazyConvTranspose1d": one(signal),
    "nn.LazyConvTranspose2d": one(image),
    "nn.LazyConvTranspose3d": one(volume),
    "nn.LazyBatchNorm1d": one(lambda: leaf((4, 2))),
    "nn.LazyBatchNorm2d": one(lambda: leaf((2, 2, 2, 2))),
    "nn.LazyBatchNorm3d": one(lambda: leaf((2, 2, 2, 2, 2))),
    "nn.MarginRankingLoss": one(lambda: leaf((2,)), lambda: leaf((2,)), signs),
    "nn.MaxPool1d": one(signal),
    "nn.MaxPool2d": one(image) + one(lambda: leaf((2, 5, 5))),
    "nn.NLLLoss": one(x23, labels),
    "nn.CTCLoss": one(ctc_in, ctc_targets, c([5, 4]), c([3, 2]))
    + one(lambda: leaf((5, 4), -3.0, -0.1), c(t(2, 3)), c([5]), c([2])),
    "nn.CrossEntropyLoss": one(x23, labels) + one(x23, x23),
    "nn.Threshold": one(x23),
    "nn.TripletMarginLoss": one(x23, x23, x23),
    "nn.RNN": one(lambda: leaf((4, 2, 3))),
    "nn.LSTM": one(lambda: leaf((4, 2, 3))),
    "nn.GRU": one(lambda: leaf((4, 2, 3))),
    "nn.RNNCell": one(x23),
    "nn.LSTMCell": one(x23),
    "nn.GRUCell": one(x23),
    "F.scaled_dot_product_attention": one(
        lambda: leaf((1, 2, 3, 4)), lambda: leaf((1, 2, 5, 4)), lambda: leaf((1, 2, 5, 4))
    )
    + one(
        lambda: leaf((2, 3, 4)),
        lambda: leaf((2, 5, 4)),
        lambda: leaf((2, 5, 4)),
        attn_mask=Tensor(np.tril(np.ones((3, 5), bool), -1)),
    ),
    "nn.MultiheadAttention": one(
        lambda: leaf((3, 2, 4)), lambda: leaf((5, 2, 4)), lambda: leaf((5, 2, 4))
    ),
    "nn.TransformerEncoderLayer": one(lambda: leaf((3, 2, 4))),
    "nn.TransformerDecoderLayer": one(lambda: leaf((3, 2, 4)), lambda: leaf((5, 2, 4))),
    "nn.Transformer": one(lambda: leaf((3, 2, 4)), lambda: leaf((5, 2, 4))),
    "nn.TransformerEncoder": one(lambda: leaf((3, 2, 4))),
    "nn.TransformerDecoder": one(lambda: leaf((3, 2, 4)), lambda: leaf((5, 2, 4))),
    "F.multi_head_attention_forward": one(
        lambda: leaf((3, 2, 4)),
        lambda: leaf((5, 2, 4)),
        lambda: leaf((5, 2, 4)),
        4,
        2,
        lambda: leaf((12, 4)),
        lambda: leaf((12,)),
        lambda: leaf((1, 1, 4)),
        lambda: leaf((1, 1, 4)),
        True,
        0.0,
        lambda: leaf((4, 4)),
        lambda: leaf((4,)),
    ),
}


def _layer(kind: str) -> Any:
    from gradcli.surface import attention

    return getattr(attention, kind)(4, 2, 8)


# How the modules are made: nn.X(*args) (default: no arguments); `MADE_AS` adds other ways.
CONSTRUCT: dict[str, tuple] = {
    "nn.AvgPool1d": (2,),
    "nn.AvgPool2d": (2,),
    "nn.Bilinear": (3, 3, 2),
    "nn.PReLU": (3,),
    "nn.AdaptiveAvgPool1d": (4,),
    "nn.AdaptiveAvgPool2d": ((3, 2),),
    "nn.AdaptiveAvgPool3d": ((2, 3, 2),),
    "nn.AvgPool3d": (2,),
    "nn.MaxPool3d": (2,),
    "nn.Conv3d": (2, 3, 2),
    "nn.ConvTranspose3d": (2, 3, 2),
    "nn.ConstantPad1d": (1, 0.5),
    "nn.ConstantPad2d": (1, 0.5),
    "nn.ConstantPad3d": (1, 0.5),
    "nn.InstanceNorm3d": (2,),
    "nn.Unfold": (2,),
    "nn.Fold": ((3, 3), 2),
    "nn.Conv1d": (2, 3, 2),
    "nn.Conv2d": (2, 3, 2),
    "nn.ConvTranspose1d": (2, 3, 2),
    "nn.Unflatten": (1, (3, 1)),
    "nn.Upsample": (None, 2),
    "nn.UpsamplingNearest2d": (None, 2),
    "nn.UpsamplingBilinear2d": (None, 2),
    "nn.ConvTranspose2d": (2, 3, 2),
    "nn.Embedding": (4, 3),
    "nn.GroupNorm": (1, 2),
    "nn.InstanceNorm1d": (2,),
    "nn.InstanceNorm2d": (2,),
    "nn.LocalResponseNorm": (2,),
    "nn.AdaptiveMaxPool1d": (2,),
    "nn.AdaptiveMaxPool2d": ((2, 1),),
    "nn.FractionalMaxPool2d": (2, 3),
    "nn.FractionalMaxPool3d": ((1, 2, 2), 2),
    "nn.PixelShuffle": (2,),
    "nn.MaxUnpool1d": (2,),
    "nn.MaxUnpool2d": (2,),
    "nn.MaxUnpool3d": (2,),
    "nn.ChannelShuffle": (2,),
    "nn.AdaptiveLogSoftmaxWithLoss": (8, 10, [3, 6]),
    "nn.LinearCrossEntropyLoss": (3, 4),
    "nn.AdaptiveMaxPool3d": ((2, 1, 3),),
    "nn.LPPool1d": (2, 3),
    "nn.LPPool2d": (2, 2),
    "nn.LPPool3d": (3, 2),
    "nn.EmbeddingBag": (4, 3),
    "nn.PixelUnshuffle": (2,),
    "nn.BatchNorm1d": (2,),
    "nn.BatchNorm2d": (2,),
    "nn.BatchNorm3d": (2,),
    "nn.LayerNorm": (3,),
    "nn.RMSNorm": (3,),
    "nn.Linear": (3, 2),
    "nn.LazyLinear": (2,),
    "nn.LazyConv1d": (3, 2),
    "nn.LazyConv2d": (3, 2),
    "nn.LazyConv3d": (3, 2),
    "nn.LazyConvTranspose1d": (3, 2),
    "nn.LazyConvTranspose2d": (3, 2),
    "nn.LazyConvTranspose3d": (3, 2),
    "nn.MaxPool1d": (2,),
    "nn.MaxPool2d": (2,),
    "nn.Threshold": (0.5, 0.0),
    **{f"nn.{k}": (3, 2) for k in ("RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell")},
    "nn.MultiheadAttention": (4, 2),
    "nn.TransformerEncoderLayer": (4, 2, 8),
    "nn.TransformerDecoderLayer": (4, 2, 8),
    "nn.Transformer": (4, 2, 1, 1, 8),
    "nn.TransformerEncoder": (_layer("TransformerEncoderLayer"), 2),
    "nn.TransformerDecoder": (_layer("TransformerDecoderLayer"), 2),
    **{
        f"nn.{k}{p}": (1,)
        for k in ("Zero", "Reflection", "Replication", "Circular")
        for p in ("Pad1d", "Pad2d", "Pad3d")
    },
}


MADE_AS: dict[str, list[tuple[tuple, dict[str, Any]]]] = {
    "nn.LinearCrossEntropyLoss": [((3, 4), {"bias": True, "label_smoothing": 0.1})],
    "nn.Upsample": [((None, 2, "bilinear"), {})],
    "nn.MultiheadAttention": [((4, 2), {"add_bias_kv": True, "add_zero_attn": True})],
    "nn.RNN": [((3, 2), {"nonlinearity": "relu", "bidirectional": True})],
    "nn.RNNCell": [((3, 2), {"nonlinearity": "relu"})],
    "nn.LSTM": [((3, 2), {"bidirectional": True})],
    "nn.GRU": [((3, 2), {"bidirectional": True})],
    "nn.L1Loss": [((), {"reduction": "sum"})],
    "nn.MultiMarginLoss": [((), {"p": 2})],
    "nn.CTCLoss": [((), {"reduction": "sum", "zero_infinity": True}), ((1, "none"), {})],
    **{f"nn.LPPool{d}d": [((np.inf, 2), {}), ((-np.inf, 2), {})] for d in (1, 2, 3)},
    "nn.AdaptiveAvgPool1d": [((1,), {})],
    "nn.AdaptiveAvgPool2d": [(((1, 1),), {})],
    "nn.AdaptiveAvgPool3d": [(((1, 1, 1),), {})],
    "nn.BCEWithLogitsLoss": [
        ((), {"reduction": "sum"}),
        ((), {"pos_weight": Tensor(np.full((3,), 2.0))}),
        ((), {"weight": Tensor(np.array([1, 2, 3]))}),
        (
            (),
            {
                "weight": Tensor(np.array([1, 2, 3])),
                "pos_weight": Tensor(np.full((3,), 2.0)),
                "reduction": "sum",
            },
        ),
    ],
}


def _fft_calls(key: str, cut: Any, grow: Any) -> list[Call]:
    """A torch.fft function on a real and on a complex leaf, its signal cut and zero-padded."""
    return [
        (lambda: (x23(),), {key: cut}),
        (lambda: (x23(),), {key: grow}),
        (lambda: (z23(),), {}),
        (lambda: (z23(),), {key: grow}),
    ]


CALLS.update({f"fft.{f}": _fft_calls("n", 2, 8) for f in "fft ifft rfft ihfft irfft hfft".split()})
CALLS.update(
    {
        f"fft.{f}{k}": _fft_calls("s", (1, 2), (3, 8))
        for f in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
        for k in ("2", "n")
    }
)
CALLS.update({"fft.fftfreq": one(4), "fft.rfftfreq": one(5, 0.5)})
CALLS["torch.frombuffer"] = one(c(bytes(8)), dtype=np.dtype(np.float32))

# The containers and the module base: made, never called.
MADE = {
    "nn.Module": one(),
    # made around a module (whose own records are its declaration's), never called here
    "nn.DataParallel": one(lambda: names.MODULES["Identity"]()),
    "nn.Parameter": one(x23),
    "nn.Buffer": one(x23),
    "nn.Sequential": one(),
    "nn.ModuleList": one(lambda: []),
    "nn.ModuleDict": one(lambda: {}),
    "nn.ParameterList": one(lambda: [x23()]),
    "nn.ParameterDict": one(lambda: {"w": x23()}),
}


def _run(fn: Callable[..., Any], args: tuple, kwargs: dict[str, Any]) -> set[str] | None:
    """The records `fn(*args, **kwargs)` applied, or None when it raised."""
    seen, before = Recording(), hooks.observer
    hooks.install(seen)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn(*args, **kwargs)
    except Exception:  # noqa: BLE001 - a call that does not fit this name
        return None
    finally:
        hooks.install(before)
    return seen.applied


def _in_place(args: tuple) -> tuple:
    """The inputs with the first one a non-leaf (a leaf that requires grad cannot change in
    place), made before anything is recorded."""
    if args and isinstance(args[0], Tensor) and args[0].requires_grad:
        with hooks_off():
            return (args[0] * 1, *args[1:])
    return args


class hooks_off:  # noqa: N801 - a context, as `no recording`
    def __enter__(self) -> None:
        self.before = hooks.observer
        hooks.install(hooks.Observer())

    def __exit__(self, *exc: object) -> None:
        hooks.install(self.before)


def _cases() -> list[Any]:
    """One case per declared function (its names and places together)."""
    seen: dict[tuple[int, tuple[str, ...]], list[Name]] = {}
    for n in names.NAMES:
        seen.setdefault((id(n.fn), n.where), []).append(n)
    out = []
    for group in seen.values():
        first = group[0]
        ids = "/".join(f"{w}.{n.name}" for n in group[:2] for w in first.where[:1])
        out.append(pytest.param(group, id=ids))
    return out


def _applied(group: list[Name]) -> tuple[set[str], int]:
    """The records the group's function applied over all the calls that fit it, and how many
    calls fit."""
    first = group[0]
    qualified = {q for n in group for q in n.qualified()}
    calls = list(GENERIC)
    for q in sorted(qualified):
        calls += CALLS.get(q, [])
    if "nn" in first.where and f"nn.{first.name}" in CALLS:
        calls = CALLS[f"nn.{first.name}"]  # a module with parameters: on inputs that fit them
    fn = first.fn
    if f"nn.{first.name}" in MADE and "nn" in first.where:
        calls = MADE[f"nn.{first.name}"]
    elif "nn" in first.where:
        ways = [(CONSTRUCT.get(f"nn.{first.name}", ()), {})]
        ways += MADE_AS.get(f"nn.{first.name}", [])
        calls = [
            (lambda make=make, a=a, kw=kw: (first.fn(*a, **kw), *make()), kwargs)
            for make, kwargs in calls
            for a, kw in ways
        ]

        def fn(module: Any, *args: Any, **kwargs: Any) -> Any:
            return module(*args, **kwargs)

    union: set[str] = set()
    fits = 0
    for make, kwargs in calls:
        args = make()
        if first.name.endswith("_") or first.name.startswith("__i"):
            args = _in_place(args)
        got = _run(fn, args, dict(kwargs))
        if got is not None:
            fits += 1
            union |= got
    return union, fits


# Names a program holds for isinstance only (PyTorch's base classes): made, they are refused.
CLASS_ONLY = {"nn.RNNBase", "nn.RNNCellBase"}
# Names PyTorch removed and keeps only to fail with its RuntimeError (which a program catches).
REMOVED = {
    "torch.eig, Tensor.eig",
    "torch.symeig, Tensor.symeig",
    "torch.solve, Tensor.solve",
    "torch.lstsq, Tensor.lstsq",
    "torch.matrix_rank",
    "Tensor.reinforce",
}
# Names whose PyTorch result is complex: of a real matrix, eig refused in plain words with what
# to write instead (its eigenvectors' signs are MKL's), eigvals' values (no record); of a complex
# matrix, their records as declared (CALLS).
COMPLEX_RESULTS = {"linalg.eig", "linalg.eigvals"}


@pytest.mark.parametrize("group", _cases())
def test_a_declaration_names_the_records_its_name_applies(group: list[Name]) -> None:
    first = group[0]
    where = ", ".join(q for n in group for q in n.qualified())
    declared = set(first.records)
    if where in CLASS_ONLY:
        from gradcli.base.errors import NotSupported

        assert not declared
        with pytest.raises(NotSupported, match="directly is not supported") as e:
            first.fn(3, 2)
        assert "for isinstance" in e.value.hint
        return
    if where in COMPLEX_RESULTS:
        from gradcli.base.errors import NotSupported

        if first.name == "eig":
            with pytest.raises(NotSupported, match="eigenvectors' signs"):
                first.fn(Tensor(np.eye(2)))
        else:
            assert first.fn(Tensor(np.eye(2))).data.tolist() == [1, 1]
    if where in REMOVED:
        assert not declared
        with pytest.raises(GradcliError, match="is now removed|was removed"):
            first.fn(Tensor(np.eye(2)))
        return
    assert declared <= set(REGISTRY), f"{where}: no record named {declared - set(REGISTRY)}"
    applied, fits = _applied(group)
    assert fits, f"{where}: none of the calls fits it (give it some in CALLS)"
    assert applied == declared, (
        f"{where} declares {sorted(declared)} and applies {sorted(applied)}: "
        f"not applied {sorted(declared - applied)}, not declared {sorted(applied - declared)}"
    )


@pytest.mark.parametrize(
    "name", [n for n in names.NAMES if "Tensor_" in n.where], ids=lambda n: n.name + "_"
)
def test_the_in_place_form_applies_the_records_of_its_name(name: Name) -> None:
    """x.X_(...) is x changed in place to X(x, ...): the records of X, those of its forms
    with a tensor first (not `number % tensor`'s)."""
    method = names.METHODS[name.name + "_"]
    union: set[str] = set()
    for make, kwargs in GENERIC + CALLS.get(f"torch.{name.name}", []):
        got = _run(method, _in_place(make()), dict(kwargs))
        if got is not None:
            union |= got
    assert union and union <= set(name.records), (name.name, sorted(union))


def test_every_place_is_known_and_no_name_is_declared_twice() -> None:
    places: dict[str, int] = {}
    for n in names.NAMES:
        assert set(n.where) <= set(WHERE), n
        for q in n.qualified():
            places[q] = places.get(q, 0) + 1
    assert [q for q, k in places.items() if k > 1] == []


def test_a_wrong_declaration_fails() -> None:
    """The check itself: `exp` declared as built on `log`, or on `exp` and `mul`, is caught."""
    exp = names.FUNCTIONS["exp"]
    for wrong in (("log",), ("exp", "mul")):
        group = [Name("exp", ("torch",), exp, wrong, False)]
        applied, fits = _applied(group)
        assert fits and applied == {"exp"} != set(wrong)


# --- the families imported on first use (start-up) ------------------------------------------


def test_the_family_index_is_the_families_tables() -> None:
    """`family_index.INDEX` (which family a name of a lazy table imports) is what the families'
    tables give; regenerate it with names.index() when a family's table changes."""
    from gradcli.surface.family_index import INDEX

    made = names.index()
    if made != INDEX:
        import pprint

        pytest.fail("gradcli/surface/family_index.py is stale; INDEX = " + pprint.pformat(made))


def test_a_family_is_imported_by_its_first_name_in_a_fresh_process(tmp_path: Any) -> None:
    """A program that names nothing of a family does not import it; naming one of its names
    (torch.X, x.X, nn.X, torch.linalg.X) does, and the name is the family's function; the
    tables, iterated, are the tables of every family in their order."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys\n"
        "from gradcli.surface import names\n"
        "from gradcli.core.tensor import Tensor\n"
        "lazy = [f for f in names.FAMILIES if 'gradcli.surface.' + f in sys.modules]\n"
        "assert lazy == ['sampling', 'nn'], lazy\n"
        "from gradcli.surface import family_index\n"
        "assert 'det' in names.LINALG and 'gradcli.surface.linalg' in sys.modules\n"
        "assert names.LINALG['det'] is sys.modules['gradcli.surface.linalg'].linalg_det\n"
        "assert 'gradcli.surface.layers' not in sys.modules\n"
        "assert names.MODULES.get('Conv2d') is not None\n"
        "assert 'gradcli.surface.layers' in sys.modules\n"
        "t = Tensor([[1.0, 2.0], [3.0, 4.0]])\n"
        "assert 'gradcli.surface.rearrange' not in sys.modules\n"
        "assert t.flip(0).data.tolist() == [[3.0, 4.0], [1.0, 2.0]]\n"
        "assert 'gradcli.surface.rearrange' in sys.modules\n"
        "try:\n"
        "    t.no_such_method\n"
        "except AttributeError as e:\n"
        "    assert str(e) == \"'Tensor' object has no attribute 'no_such_method'\", e\n"
        "order = list(names.FUNCTIONS)\n"
        "assert set(names.FAMILIES) <= {m.rsplit('.', 1)[-1] for m in sys.modules}\n"
        "print(len(order))\n"
    )
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root))
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert int(r.stdout) == len(list(names.FUNCTIONS))
