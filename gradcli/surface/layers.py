"""The `torch.nn` modules over `nnfunctional` and `nnlosses`: activations, normalisation
(LayerNorm, GroupNorm), convolution (Conv1d, Conv2d), pooling, padding, distances and losses,
each with PyTorch's constructor arguments, attributes, repr (`extra_repr`) and default
initialisation drawn from PyTorch's generator (`random.init_conv`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core.dtypes import scalar_type_name
from ..core.inplace import check_capture, write
from ..core.tensor import Settings, Tensor, typename
from ..ops.arithmetic import size_check, tensor_arg
from . import extras as X
from . import nnfunctional as NF
from . import nnlosses as NL
from . import overloads as OV
from .adaptive import AdaptiveLogSoftmaxWithLoss, LinearCrossEntropyLoss, linear_cross_entropy
from .args import reduction_arg
from .declare import declare
from .functional import _method_
from .nn import (
    Functional,
    Module,
    UninitializedBuffer,
    UninitializedParameter,
    _draw_dtype,
    _features,
    _reshown,
    empty_shape,
    has_uninitialized,
    not_lazy,
    rewrite,
)
from .nn import _constructor as _nn_constructor
from .nnfunctional import adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d
from .sampling import R

# --- modules that apply one function ---------------------------------------------------------


class Applied(Functional):
    """A module applying one function with fixed keyword arguments; its attributes (`alpha`,
    `dim`, `margin`...) are those arguments."""

    def __init__(
        self,
        name: str,
        fn: Callable[..., Any],
        kwargs: dict,
        shown: str,
        settings: dict | None = None,
    ) -> None:
        super().__init__(name, fn, kwargs, shown, settings=kwargs if settings is None else settings)
        self.ATTRIBUTES = ("training", *self.settings)


def _inplace_shown(text: str, inplace: Any) -> str:
    if not inplace:
        return text
    return f"{text}, inplace=True" if text else "inplace=True"


def ELU(alpha: float = 1.0, inplace: bool = False) -> Module:  # noqa: N802
    return Applied(
        "ELU",
        NF.elu,
        {"alpha": alpha, "inplace": inplace},
        _inplace_shown(f"alpha={alpha}", inplace),
    )


def SELU(inplace: bool = False) -> Module:  # noqa: N802
    return Applied("SELU", NF.selu, {"inplace": inplace}, _inplace_shown("", inplace))


def CELU(alpha: float = 1.0, inplace: bool = False) -> Module:  # noqa: N802
    return Applied(
        "CELU",
        NF.celu,
        {"alpha": alpha, "inplace": inplace},
        _inplace_shown(f"alpha={alpha}", inplace),
    )


def Hardtanh(  # noqa: N802
    min_val: float = -1.0,
    max_val: float = 1.0,
    inplace: bool = False,
    min_value: Any = None,
    max_value: Any = None,
) -> Module:
    if min_val > max_val:
        raise GradcliError("min_val cannot be greater than max_val").mirror("ValueError")
    return Applied(
        "Hardtanh",
        NF.hardtanh,
        {"min_val": min_val, "max_val": max_val, "inplace": inplace},
        _inplace_shown(f"min_val={min_val}, max_val={max_val}", inplace),
    )


def ReLU6(inplace: bool = False) -> Module:  # noqa: N802
    # PyTorch's ReLU6 is a Hardtanh(0, 6): its bounds are attributes
    settings = {"min_val": 0.0, "max_val": 6.0, "inplace": inplace}
    return Applied("ReLU6", NF.relu6, {"inplace": inplace}, _inplace_shown("", inplace), settings)


def Softsign() -> Module:  # noqa: N802
    return Applied("Softsign", NF.softsign, {}, "")


def Tanhshrink() -> Module:  # noqa: N802
    return Applied("Tanhshrink", NF.tanhshrink, {}, "")


def Mish(inplace: bool = False) -> Module:  # noqa: N802
    return Applied("Mish", NF.mish, {"inplace": inplace}, _inplace_shown("", inplace))


def Hardswish(inplace: bool = False) -> Module:  # noqa: N802
    return Applied("Hardswish", NF.hardswish, {"inplace": inplace}, "")


def Hardsigmoid(inplace: bool = False) -> Module:  # noqa: N802
    return Applied("Hardsigmoid", NF.hardsigmoid, {"inplace": inplace}, "")


def Softmin(dim: Any = None) -> Module:  # noqa: N802
    return Applied("Softmin", NF.softmin, {"dim": dim}, f"dim={dim}")


def Softshrink(lambd: float = 0.5) -> Module:  # noqa: N802
    return Applied("Softshrink", NF.softshrink, {"lambd": lambd}, f"{lambd}")


def Hardshrink(lambd: float = 0.5) -> Module:  # noqa: N802
    return Applied("Hardshrink", NF.hardshrink, {"lambd": lambd}, f"{lambd}")


def Threshold(threshold: float, value: float, inplace: bool = False) -> Module:  # noqa: N802
    return Applied(
        "Threshold",
        NF.threshold,
        {"threshold": threshold, "value": value, "inplace": inplace},
        _inplace_shown(f"threshold={threshold}, value={value}", inplace),
    )


def GLU(dim: int = -1) -> Module:  # noqa: N802
    return Applied("GLU", NF.glu, {"dim": dim}, f"dim={dim}")


def CosineSimilarity(dim: int = 1, eps: float = 1e-8) -> Module:  # noqa: N802
    return Applied("CosineSimilarity", NF.cosine_similarity, {"dim": dim, "eps": eps}, "")


def PairwiseDistance(p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Module:  # noqa: N802
    return Applied(
        "PairwiseDistance",
        NF.pairwise_distance,
        {"p": p, "eps": eps, "keepdim": keepdim},
        "",
        {"norm": p, "eps": eps, "keepdim": keepdim},  # PyTorch keeps p as `norm`
    )


# --- losses ------------------------------------------------------------------------------------


def _loss(name: str, fn: Callable[..., Any], kwargs: dict) -> Module:
    if "reduction" in kwargs:
        r = kwargs["reduction"]
        if kwargs.get("size_average") is not None or kwargs.get("reduce") is not None:
            # PyTorch's legacy arguments: reduce=False means 'none'; size_average=False 'sum'
            from .nn import legacy_reduction

            r = legacy_reduction(kwargs.get("size_average"), kwargs.get("reduce"))
        kwargs = {**kwargs, "reduction": r}
        if name != "KLDivLoss":
            reduction_arg(r, warn=False)
    return Applied(
        name, fn, {k: v for k, v in kwargs.items() if k not in ("size_average", "reduce")}, ""
    )


def SmoothL1Loss(  # noqa: N802
    size_average: Any = None, reduce: Any = None, reduction: str = "mean", beta: float = 1.0
) -> Module:
    return _loss(
        "SmoothL1Loss",
        NL.smooth_l1_loss,
        {"size_average": size_average, "reduce": reduce, "reduction": reduction, "beta": beta},
    )


def HuberLoss(reduction: str = "mean", delta: float = 1.0) -> Module:  # noqa: N802
    return _loss("HuberLoss", NL.huber_loss, {"reduction": reduction, "delta": delta})


def KLDivLoss(  # noqa: N802
    size_average: Any = None, reduce: Any = None, reduction: str = "mean", log_target: bool = False
) -> Module:
    return _loss(
        "KLDivLoss",
        NL.kl_div,
        {
            "size_average": size_average,
            "reduce": reduce,
            "reduction": reduction,
            "log_target": log_target,
        },
    )


def SoftMarginLoss(  # noqa: N802
    size_average: Any = None, reduce: Any = None, reduction: str = "mean"
) -> Module:
    return _loss(
        "SoftMarginLoss",
        NL.soft_margin_loss,
        {"size_average": size_average, "reduce": reduce, "reduction": reduction},
    )


def PoissonNLLLoss(  # noqa: N802
    log_input: bool = True,
    full: bool = False,
    size_average: Any = None,
    eps: float = 1e-8,
    reduce: Any = None,
    reduction: str = "mean",
) -> Module:
    return _loss(
        "PoissonNLLLoss",
        NL.poisson_nll_loss,
        {
            "log_input": log_input,
            "full": full,
            "size_average": size_average,
            "eps": eps,
            "reduce": reduce,
            "reduction": reduction,
        },
    )


def GaussianNLLLoss(  # noqa: N802
    *, full: bool = False, eps: float = 1e-6, reduction: str = "mean"
) -> Module:
    return _loss(
        "GaussianNLLLoss", NL.gaussian_nll_loss, {"full": full, "eps": eps, "reduction": reduction}
    )


def MultiLabelSoftMarginLoss(  # noqa: N802
    weight: Any = None, size_average: Any = None, reduce: Any = None, reduction: str = "mean"
) -> Module:
    return _loss(
        "MultiLabelSoftMarginLoss",
        NL.multilabel_soft_margin_loss,
        {"weight": weight, "size_average": size_average, "reduce": reduce, "reduction": reduction},
    )


def CTCLoss(  # noqa: N802
    blank: int = 0, reduction: str = "mean", zero_infinity: bool = False
) -> Module:
    return _loss(
        "CTCLoss",
        NL.ctc_loss,
        {"blank": blank, "reduction": reduction, "zero_infinity": zero_infinity},
    )


def _margin_loss(name: str, fn: Callable[..., Any], default: float) -> Callable[..., Module]:
    def make(
        margin: float = default,
        size_average: Any = None,
        reduce: Any = None,
        reduction: str = "mean",
    ) -> Module:
        return _loss(
            name,
            fn,
            {
                "margin": margin,
                "size_average": size_average,
                "reduce": reduce,
                "reduction": reduction,
            },
        )

    make.__name__ = name
    return make


MarginRankingLoss = _margin_loss("MarginRankingLoss", NL.margin_ranking_loss, 0.0)
HingeEmbeddingLoss = _margin_loss("HingeEmbeddingLoss", NL.hinge_embedding_loss, 1.0)
CosineEmbeddingLoss = _margin_loss("CosineEmbeddingLoss", NL.cosine_embedding_loss, 0.0)


def TripletMarginLoss(  # noqa: N802
    margin: float = 1.0,
    p: float = 2.0,
    eps: float = 1e-6,
    swap: bool = False,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Module:
    if float(margin) <= 0:
        raise GradcliError(
            f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead"
        ).mirror("ValueError")
    return _loss(
        "TripletMarginLoss",
        NL.triplet_margin_loss,
        {
            "margin": margin,
            "p": p,
            "eps": eps,
            "swap": swap,
            "size_average": size_average,
            "reduce": reduce,
            "reduction": reduction,
        },
    )


# --- padding -----------------------------------------------------------------------------------


def _padding(padding: Any, d: int) -> tuple[int, ...]:
    if isinstance(padding, (list, tuple)):
        vals = tuple(padding)  # as given, of any length (PyTorch's _ntuple; F.pad checks it)
    else:
        vals = (padding,) * (2 * d)
    for v in vals:
        if isinstance(v, bool) or not isinstance(v, int):
            raise GradcliError(f"padding must be ints, not {typename(v)}").mirror("TypeError")
    return vals


class Pad(Module):
    ATTRIBUTES = ("training", "padding", "value", "mode")

    def __init__(self, name: str, padding: tuple, mode: str, value: Any, shown: str) -> None:
        super().__init__()
        self._name, self.padding, self.mode, self.value, self.shown = (
            name,
            padding,
            mode,
            value,
            shown,
        )

    @property
    def name(self) -> str:
        return self._name

    def forward(self, x: Any) -> Tensor:
        if self.mode == "constant":
            return NF.pad(x, self.padding, "constant", self.value)
        d = int(self._name[-2])  # the class's dimensions (CircularPad3d: 3), not the padding's
        if self.mode == "circular" and isinstance(x, Tensor) and x.ndim not in (d + 1, d + 2):
            # PyTorch's _CircularPadNd checks the input's dimensions before F.pad
            raise GradcliError(f"expected {d + 1}D or {d + 2}D input (got {x.ndim}D input)").mirror(
                "ValueError"
            )
        return NF.pad(x, self.padding, self.mode)

    def extra_repr(self) -> str:
        return self.shown


def _pad_module(name: str, d: int, mode: str) -> Callable[..., Module]:
    if mode == "constant":

        def make_const(padding: Any, value: float) -> Module:
            p = _padding(padding, d)
            return Pad(name, p, mode, value, f"padding={p}, value={value}")

        make_const.__name__ = name
        return make_const

    def make(padding: Any) -> Module:
        p = _padding(padding, d)
        return Pad(name, p, "constant" if mode == "zeros" else mode, 0.0, f"{p}")

    make.__name__ = name
    return make


PADDING_MODULES = {
    f"{kind}Pad{d}d": _pad_module(f"{kind}Pad{d}d", d, mode)
    for d in (1, 2, 3)
    for kind, mode in (
        ("Constant", "constant"),
        ("Zero", "zeros"),
        ("Reflection", "reflect"),
        ("Replication", "replicate"),
        ("Circular", "circular"),
    )
}


# --- normalisation -------------------------------------------------------------------------------


def _ones_zeros(
    shape: Any, affine: bool, bias: bool, dtype: Any = None
) -> list[tuple[str, Any, int]]:
    """The norms' reset_parameters (LayerNorm, GroupNorm, BatchNorm, RMSNorm): ones_(weight),
    zeros_(bias), when they have them (no random numbers are drawn), in the module's `dtype=`
    where it was given one."""
    dt = Settings.default_dtype if dtype is None else _draw_dtype(dtype)
    w, b = R.init_layer_norm(shape, affine, bias, dt)
    return [("weight", w, 1), ("bias", b, 1)]


class LayerNorm(Module):
    METHODS = Module.METHODS + ("reset_parameters",)
    ATTRIBUTES = ("training", "normalized_shape", "eps", "elementwise_affine")

    def __init__(
        self,
        normalized_shape: Any,
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else normalized_shape
        self.normalized_shape = NF._shape_list(shape, "normalized_shape", "LayerNorm")
        self.eps = eps
        self.elementwise_affine = bool(elementwise_affine)
        self.has_bias = bool(bias) and self.elementwise_affine
        self._register_drawn(
            _ones_zeros(self.normalized_shape, self.elementwise_affine, bool(bias), dtype), dtype
        )

    def reset_parameters(self) -> None:
        bias = self._parameters["bias"] is not None
        self._rewrite_drawn(_ones_zeros(self.normalized_shape, self.elementwise_affine, bias))

    def forward(self, x: Any) -> Tensor:
        return NF.layer_norm(
            x,
            self.normalized_shape,
            self._parameters["weight"],
            self._parameters["bias"],
            float(self.eps),
        )

    def extra_repr(self) -> str:
        return (
            f"{self.normalized_shape}, eps={self.eps}, "
            f"elementwise_affine={self.elementwise_affine}, "
            f"bias={self._parameters['bias'] is not None}"
        )


class RMSNorm(Module):
    """`nn.RMSNorm(normalized_shape, eps=None, elementwise_affine=True)`: F.rms_norm with a
    weight of ones (no bias)."""

    METHODS = Module.METHODS + ("reset_parameters",)
    ATTRIBUTES = ("training", "normalized_shape", "eps", "elementwise_affine")

    def __init__(
        self,
        normalized_shape: Any,
        eps: float | None = None,
        elementwise_affine: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else normalized_shape
        self.normalized_shape = NF._shape_list(shape, "normalized_shape", "RMSNorm")
        self.eps = eps
        self.elementwise_affine = bool(elementwise_affine)
        self._register_drawn(
            _ones_zeros(self.normalized_shape, self.elementwise_affine, False, dtype)[:1], dtype
        )

    def reset_parameters(self) -> None:
        self._rewrite_drawn(_ones_zeros(self.normalized_shape, self.elementwise_affine, False))

    def forward(self, x: Any) -> Tensor:
        return NF.rms_norm(x, self.normalized_shape, self._parameters["weight"], self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"
        )


def prelu(input: Any, weight: Any) -> Tensor:  # noqa: A002 - PyTorch's argument name
    """`F.prelu(x, w)`: x where x > 0, else w * x, with one slope or one per channel (dim 1;
    an input of fewer than 2 dims has one channel)."""
    from ..core.op import apply
    from ..ops.activation import prelu_kernel
    from .functional import reshape

    x = tensor_arg(input, "input")
    w = tensor_arg(weight, "weight")
    if x.dtype != w.dtype:
        raise (
            GradcliError(
                "prelu: Type promoting not supported. Got "
                f"{scalar_type_name(x.dtype)} and {scalar_type_name(w.dtype)}",
                hint="give the input the weight's dtype: x.float()",
            )
            .mirror("RuntimeError")
            .pytorch()
        )
    n = int(np.prod(w.shape))
    channels = x.shape[1] if x.ndim >= 2 else 1
    if n != 1 and n != channels:
        raise GradcliError(
            "Mismatch of parameter numbers and input channel size. Found parameter numbers = "
            f"{n} and channel size = {channels}."
        )
    # ATen's prelu: a weight of other dims than the input's is reshaped to broadcast over it
    # ((1, C, 1, ...): the channels on dim 1), then _prelu_kernel
    if w.ndim != x.ndim:
        w = reshape(w, tuple(n if d == 1 else 1 for d in range(x.ndim)))
    return apply(prelu_kernel, x, w)


class PReLU(Module):
    """nn.PReLU: a learnable slope (one, or one per channel) filled with `init` (no draw)."""

    METHODS = Module.METHODS + ("reset_parameters",)
    ATTRIBUTES = ("training", "num_parameters", "init")

    def __init__(
        self, num_parameters: int = 1, init: float = 0.25, device: Any = None, dtype: Any = None
    ) -> None:
        super().__init__()
        self.num_parameters = _features(num_parameters, "num_parameters")
        empty_shape(self.num_parameters)
        self.init = float(init)
        size_check((self.num_parameters,), "nn.PReLU weight")
        self._register_drawn(self._drawn(_draw_dtype(dtype)), dtype)

    def _drawn(self, draw: Any) -> Any:
        """PyTorch's reset_parameters: constant_(weight, init)."""
        return [("weight", R.constant_((self.num_parameters,), self.init, dtype=draw), 1)]

    def reset_parameters(self) -> None:
        self._rewrite_drawn(self._drawn(self._reset_dtype()))

    def forward(self, x: Any) -> Tensor:
        return prelu(x, self._parameters["weight"])

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


def _adaptive_module(name: str, fn: Callable[..., Tensor]) -> Callable[..., Module]:
    def make(output_size: Any) -> Module:
        return Functional(name, fn, {"output_size": output_size}, f"output_size={output_size}")

    make.__name__ = name
    return make


class _BatchNorm(Module):
    """nn.BatchNorm1d / 2d / 3d: weight ones and bias zeros (when affine), the running mean
    and variance as buffers (zeros, ones) with the count of batches seen."""

    STATE_VERSION = 2  # (PyTorch's _NormBase._version: the state dict has the counter)

    METHODS = Module.METHODS + ("reset_parameters", "reset_running_stats")
    ATTRIBUTES = ("training", "num_features", "eps", "momentum", "affine", "track_running_stats")
    DIMS: tuple[int, ...] = ()

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device: Any = None,
        dtype: Any = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        self.num_features = _features(num_features, "num_features")
        empty_shape(self.num_features)
        size_check((self.num_features,), f"a tensor of shape [{self.num_features}]")
        self.eps, self.momentum = eps, momentum
        self.affine, self.track_running_stats = bool(affine), bool(track_running_stats)
        self._register_drawn(
            _ones_zeros((self.num_features,), self.affine, bool(bias), dtype), dtype
        )
        if self.track_running_stats:
            stats = np.zeros(
                self.num_features, Settings.default_dtype if dtype is None else _draw_dtype(dtype)
            )
            self.register_buffer("running_mean", Tensor(stats))
            self.register_buffer("running_var", Tensor(np.ones_like(stats)))
            self.register_buffer("num_batches_tracked", Tensor(np.array(0, np.int64)))
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self._buffers[name]._vc = [1]  # PyTorch's reset_running_stats changed them
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)

    def reset_running_stats(self) -> None:
        """The running statistics back to their start (mean 0, variance 1, no batch seen),
        in place, when the module tracks them."""
        if not self.track_running_stats:
            return
        for name, value in (("running_mean", 0), ("running_var", 1), ("num_batches_tracked", 0)):
            b = self._buffers.get(name)
            if b is not None:
                rewrite(b, np.full(b.shape, value, b.dtype))

    def reset_parameters(self) -> None:
        self.reset_running_stats()
        if self.affine:
            bias = self._parameters["bias"] is not None
            self._rewrite_drawn(_ones_zeros((self.num_features,), True, bias))

    def forward(self, x: Any) -> Tensor:
        x = tensor_arg(x, "input")
        if x.ndim not in self.DIMS:
            wanted = " or ".join(f"{d}D" for d in self.DIMS)
            raise GradcliError(f"expected {wanted} input (got {x.ndim}D input)").mirror(
                "ValueError"
            )
        factor = 0.0 if self.momentum is None else self.momentum
        count = self._buffers["num_batches_tracked"]
        if self.training and self.track_running_stats and count is not None:
            check_capture(count, "aten::add_.Tensor")  # (`num_batches_tracked.add_(1)`)
            write(count, count.data + 1)
            factor = 1.0 / float(count.data) if self.momentum is None else self.momentum
        rm, rv = self._buffers["running_mean"], self._buffers["running_var"]
        use_batch = self.training or (rm is None and rv is None)
        keep = not self.training or self.track_running_stats
        return NF.batch_norm(
            x,
            rm if keep else None,
            rv if keep else None,
            self._parameters["weight"],
            self._parameters["bias"],
            use_batch,
            factor,
            self.eps,  # as given: F.batch_norm's words show it (`but got 0`)
        )

    def extra_repr(self) -> str:
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
            f"affine={self.affine}, bias={self._parameters['bias'] is not None}, "
            f"track_running_stats={self.track_running_stats}"
        )


class _LazyBatchNorm(_BatchNorm):
    """nn.LazyBatchNorm1d / 2d / 3d: num_features from the first input's channel axis; the
    weight, bias and running statistics get their size then, and the module becomes its
    BatchNorm."""

    def __init__(
        self,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device: Any = None,
        dtype: Any = None,
        bias: bool = True,
    ) -> None:
        Module.__init__(self)
        self.num_features = 0
        self.eps, self.momentum = eps, momentum
        self.affine, self.track_running_stats = bool(affine), bool(track_running_stats)
        lazy = UninitializedParameter(dtype=dtype) if self.affine else None
        self.register_parameter("weight", lazy)
        has_bias = self.affine and bool(bias)
        self.register_parameter("bias", UninitializedParameter(dtype=dtype) if has_bias else None)
        for name in ("running_mean", "running_var", "num_batches_tracked"):
            self.register_buffer(name, None)
        if self.track_running_stats:
            self.register_buffer("running_mean", UninitializedBuffer(dtype=dtype))
            self.register_buffer("running_var", UninitializedBuffer(dtype=dtype))
            self.register_buffer("num_batches_tracked", Tensor(np.array(0, np.int64)))

    def forward(self, x: Any) -> Tensor:
        x = tensor_arg(x, "input")
        if x.ndim < 2:
            raise GradcliError(
                f"expected {' or '.join(f'{d}D' for d in self.DIMS)} input (got {x.ndim}D input)"
            ).mirror("ValueError")
        becomes = self.BECOMES
        self._materialize(x)
        return becomes.forward(self, x)

    def _materialize(self, x: Tensor) -> None:
        """PyTorch's initialize_parameters: num_features is the input's size(1) (an unbatched
        input's too), weight and bias ones and zeros, running statistics 0 and 1; the module
        becomes its `BECOMES` (PyTorch's cls_to_become). With neither affine parameters nor
        running statistics nothing is uninitialized: num_features stays 0, as in PyTorch."""
        if not has_uninitialized(self):
            # (nothing to make: no affine parameters nor running statistics, or a state dict
            # gave them all; num_features stays as it is, as PyTorch's)
            self.__class__ = self.BECOMES  # type: ignore[assignment]
            return
        not_lazy(self, ("weight", "bias", "running_mean", "running_var"), True)
        n = int(x.shape[1])
        size_check((n,), f"a tensor of shape [{n}]")
        self.num_features = n
        if self.affine:
            self._parameters["weight"].materialize(np.ones(n))
            if self._parameters["bias"] is not None:
                self._parameters["bias"].materialize(np.zeros(n))
        if self.track_running_stats:
            # (each in its own dtype: the module's dtype=, or what .double() made it)
            mean, var = self._buffers["running_mean"], self._buffers["running_var"]
            self._buffers["running_mean"] = Tensor(np.zeros(n, mean.dtype))
            self._buffers["running_var"] = Tensor(np.ones(n, var.dtype))
        self.__class__ = self.BECOMES  # type: ignore[assignment]  (PyTorch's cls_to_become)


class BatchNorm1d(_BatchNorm):
    DIMS = (2, 3)


class BatchNorm2d(_BatchNorm):
    DIMS = (4,)


class BatchNorm3d(_BatchNorm):
    DIMS = (5,)


class LazyBatchNorm1d(_LazyBatchNorm):
    DIMS = (2, 3)
    BECOMES = BatchNorm1d


class LazyBatchNorm2d(_LazyBatchNorm):
    DIMS = (4,)
    BECOMES = BatchNorm2d


class LazyBatchNorm3d(_LazyBatchNorm):
    DIMS = (5,)
    BECOMES = BatchNorm3d


class _InstanceNorm(_BatchNorm):
    """nn.InstanceNorm1d / 2d: BatchNorm's parameters and buffers, with affine and
    track_running_stats off by default; each sample's channels normalised by their own
    statistics (`extras.instance_norm`), an unbatched input handled as a batch of one."""

    NO_BATCH = 2

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = False,
        track_running_stats: bool = False,
        device: Any = None,
        dtype: Any = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__(
            num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias
        )

    def forward(self, x: Any) -> Tensor:
        from ..core import hooks
        from .extras import instance_norm
        from .functional import squeeze, unsqueeze

        x = tensor_arg(x, "input")
        nb = self.NO_BATCH
        if x.ndim not in (nb, nb + 1):
            raise GradcliError(f"expected {nb}D or {nb + 1}D input (got {x.ndim}D input)").mirror(
                "ValueError"
            )
        fd = x.ndim - nb
        if x.shape[fd] != self.num_features:
            if self.affine:
                raise GradcliError(
                    f"expected input's size at dim={fd} to match num_features "
                    f"({self.num_features}), but got: {x.shape[fd]}."
                ).mirror("ValueError")
            hooks.warn(
                f"input's size at dim={fd} does not match num_features. You can silence this "
                "warning by not passing in num_features, which is not used because affine=False"
            )
        unbatched = x.ndim == nb
        if unbatched:
            x = unsqueeze(x, 0)
        out = instance_norm(
            x,
            self._buffers["running_mean"],
            self._buffers["running_var"],
            self._parameters["weight"],
            self._parameters["bias"],
            self.training or not self.track_running_stats,
            0.0 if self.momentum is None else self.momentum,
            float(self.eps),
        )
        return squeeze(out, 0) if unbatched else out


class InstanceNorm1d(_InstanceNorm):
    NO_BATCH = 2


class InstanceNorm2d(_InstanceNorm):
    NO_BATCH = 3


class InstanceNorm3d(_InstanceNorm):
    NO_BATCH = 4


class _LazyInstanceNorm(_LazyBatchNorm):
    """nn.LazyInstanceNorm1d / 2d / 3d: as the lazy BatchNorms (affine and
    track_running_stats on by default, as PyTorch's _LazyNormBase has them), becoming the
    InstanceNorm of their dimension at the first call."""

    DIMS = (2,)

    def forward(self, x: Any) -> Tensor:
        x = tensor_arg(x, "input")
        nb = self.BECOMES.NO_BATCH
        if x.ndim < 2:
            raise GradcliError(f"expected {nb}D or {nb + 1}D input (got {x.ndim}D input)").mirror(
                "ValueError"
            )
        becomes = self.BECOMES
        self._materialize(x)
        return becomes.forward(self, x)


class LazyInstanceNorm1d(_LazyInstanceNorm):
    BECOMES = InstanceNorm1d


class LazyInstanceNorm2d(_LazyInstanceNorm):
    BECOMES = InstanceNorm2d


class LazyInstanceNorm3d(_LazyInstanceNorm):
    BECOMES = InstanceNorm3d


class LocalResponseNorm(Functional):
    ATTRIBUTES = ("training", "size", "alpha", "beta", "k")

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0):
        from .extras import local_response_norm

        kw = {"size": size, "alpha": alpha, "beta": beta, "k": k}
        super().__init__(
            "LocalResponseNorm",
            local_response_norm,
            kw,
            f"{size}, alpha={alpha}, beta={beta}, k={k}",
        )
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k


class GroupNorm(Module):
    METHODS = Module.METHODS + ("reset_parameters",)
    ATTRIBUTES = ("training", "num_groups", "num_channels", "eps", "affine")

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        eps: float = 1e-5,
        affine: bool = True,
        device: Any = None,
        dtype: Any = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        self.num_groups = _features(num_groups, "num_groups")
        self.num_channels = _features(num_channels, "num_channels")
        empty_shape(self.num_channels)
        if self.num_groups == 0 or self.num_channels % self.num_groups:
            raise GradcliError(
                f"num_channels ({self.num_channels}) must be divisible by num_groups "
                f"({self.num_groups})"
            ).mirror("ValueError")
        self.eps, self.affine = eps, bool(affine)
        self._register_drawn(
            _ones_zeros((self.num_channels,), self.affine, bool(bias), dtype), dtype
        )

    def reset_parameters(self) -> None:
        bias = self._parameters["bias"] is not None
        self._rewrite_drawn(_ones_zeros((self.num_channels,), self.affine, bias))

    def forward(self, x: Any) -> Tensor:
        return NF.group_norm(
            x,
            self.num_groups,
            self._parameters["weight"],
            self._parameters["bias"],
            float(self.eps),
        )

    def extra_repr(self) -> str:
        return (
            f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
            f"bias={self._parameters['bias'] is not None}"
        )


# --- convolution ---------------------------------------------------------------------------------

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def _ntuple(v: Any, d: int, what: str) -> tuple[int, ...]:
    items = list(v) if isinstance(v, (list, tuple)) else [v] * d
    for i in items:
        if isinstance(i, bool) and what == "kernel_size":
            continue  # (the int it stands for, kept as given: it is never first in the weight's
            # shape, so PyTorch's torch.empty takes it; its F.conv refuses a bool stride)
        if isinstance(i, bool) or not isinstance(i, int):
            raise GradcliError(f"{what} must be an int or a tuple of ints, not {typename(i)}")
    if len(items) != d:
        raise GradcliError(f"{what} must have {d} values, got {len(items)}")
    return tuple(items)


class Conv(Module):
    TRANSPOSED = False  # ConvTranspose: the weight is (in, out / groups, *k)
    METHODS = Module.METHODS + ("reset_parameters",)
    ATTRIBUTES = (
        "training",
        "in_channels",
        "out_channels",
        "kernel_size",
        "stride",
        "padding",
        "dilation",
        "groups",
        "padding_mode",
        "transposed",
        "output_padding",
    )

    def __init__(
        self,
        d: int,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        padding: Any = 0,
        dilation: Any = 1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: str = "zeros",
        device: Any = None,
        dtype: Any = None,
        lazy: bool = False,
    ) -> None:
        super().__init__()
        self.d = d
        self.in_channels = _features(in_channels, "in_channels")
        self.out_channels = _features(out_channels, "out_channels")
        if isinstance(groups, bool) or not isinstance(groups, int) or groups <= 0:
            raise GradcliError("groups must be a positive integer").mirror("ValueError")
        if self.in_channels % groups:
            raise GradcliError("in_channels must be divisible by groups").mirror("ValueError")
        if self.out_channels % groups and not lazy:  # (PyTorch's lazy ones make it with 0)
            raise GradcliError("out_channels must be divisible by groups").mirror("ValueError")
        self.kernel_size = _ntuple(kernel_size, d, "kernel_size")
        self.stride = _ntuple(stride, d, "stride")
        self.dilation = _ntuple(dilation, d, "dilation")
        self.groups = groups
        if isinstance(padding, str):
            if padding not in ("valid", "same"):
                raise GradcliError(
                    f"Invalid padding string {padding!r}, should be one of {{'valid', 'same'}}"
                ).mirror("ValueError")
            if padding == "same" and any(s != 1 for s in self.stride):
                raise GradcliError(
                    "padding='same' is not supported for strided convolutions"
                ).mirror("ValueError")
            self.padding: Any = padding
        else:
            self.padding = _ntuple(padding, d, "padding")
        if padding_mode not in _PADDING_MODES:
            raise GradcliError(
                "padding_mode must be one of {'reflect', 'zeros', 'replicate', 'circular'}, but "
                f"got padding_mode={padding_mode!r}"
            ).mirror("ValueError")
        self.padding_mode = padding_mode
        # (PyTorch works this out once, from the constructor's padding: a padding changed
        # later does not change what a padding_mode other than zeros pads)
        self.__dict__["_pad_twice"] = self._reversed_padding()
        self.transposed = self.TRANSPOSED
        self.output_padding = (0,) * d  # (ConvTranspose's own, set after)
        if self.TRANSPOSED:
            shape = (self.in_channels, self.out_channels // groups, *self.kernel_size)
        else:
            shape = (self.out_channels, self.in_channels // groups, *self.kernel_size)
        empty_shape(shape)
        if lazy:
            # nn.LazyConvNd: in_channels from the first input, drawn then (`_materialize`)
            self.__dict__["_lazy"] = bool(bias)
            self.register_parameter("weight", UninitializedParameter(dtype=dtype))
            self.register_parameter("bias", UninitializedParameter(dtype=dtype) if bias else None)
            return
        self._register_drawn(self._drawn(bool(bias), _draw_dtype(dtype)), dtype)

    def _drawn(self, bias: bool, draw: Any, in_channels: int | None = None) -> Any:
        """PyTorch's reset_parameters: kaiming_uniform_(weight, a=sqrt(5)), then the bias
        uniform in +-1/sqrt(fan_in) (fan_in of the weight's layout)."""
        w, b = R.init_conv(
            None,
            self.in_channels if in_channels is None else in_channels,
            self.out_channels,
            self.kernel_size,
            groups=self.groups,
            bias=bias,
            transposed=self.TRANSPOSED,
            dims=self.d,
            dtype=draw,
        )
        return [("weight", w, 1), ("bias", b, 1)]

    def reset_parameters(self) -> None:
        if "_lazy" in self.__dict__:
            return  # a lazy convolution before its first call: PyTorch's does nothing either
        bias = self._parameters["bias"] is not None
        self._rewrite_drawn(self._drawn(bias, self._reset_dtype()))

    @property
    def name(self) -> str:
        lazy = "Lazy" if "_lazy" in self.__dict__ else ""
        kind = "ConvTranspose" if self.TRANSPOSED else "Conv"
        return f"{lazy}{kind}{self.d}d"

    def _materialize(self, x: Any) -> None:
        """A lazy convolution's first call: in_channels is the input's channel axis; the
        parameters are drawn now (PyTorch's reset_parameters at that call). A wrong input
        leaves the module lazy."""
        from .args import shape_arg

        bias = self.__dict__["_lazy"]
        if not has_uninitialized(self):
            del self.__dict__["_lazy"]  # (a state dict gave them all: in_channels stays)
            return
        not_lazy(self, ("weight", "bias"), True)
        x = tensor_arg(x, "input")
        if x.ndim not in (self.d + 1, self.d + 2):
            raise GradcliError(
                f"Expected {self.d + 1}D (unbatched) or {self.d + 2}D (batched) input to "
                f"{self.name}, but got input of size: torch.Size({list(x.shape)})"
            ).mirror("RuntimeError")
        c = int(x.shape[0 if x.ndim == self.d + 1 else 1])
        if c % self.groups:
            raise GradcliError("in_channels must be divisible by groups").mirror("ValueError")
        if self.TRANSPOSED:
            shape_arg((c, self.out_channels // self.groups, *self.kernel_size))
        else:
            shape_arg((self.out_channels, c // self.groups, *self.kernel_size))
        # drawn in the weight's dtype (PyTorch's reset_parameters after materialize)
        draw = self._parameters["weight"].dtype
        drawn = {n: v for n, v, _ in self._drawn(bias, draw, in_channels=c)}
        w, b = drawn["weight"], drawn["bias"]
        del self.__dict__["_lazy"]
        self.in_channels = c
        self._parameters["weight"].materialize(w)
        if b is not None:
            self._parameters["bias"].materialize(b)

    def _reversed_padding(self) -> tuple[int, ...]:
        """The padding as F.pad takes it (last dim first), for a padding_mode other than zeros."""
        out: list[int] = []
        for i in reversed(range(self.d)):
            if self.padding == "valid":
                lo = hi = 0
            elif self.padding == "same":
                total = self.dilation[i] * (self.kernel_size[i] - 1)
                lo, hi = total // 2, total - total // 2
            else:
                lo = hi = self.padding[i]
            out += [lo, hi]
        return tuple(out)

    def forward(self, x: Any) -> Tensor:
        if "_lazy" in self.__dict__:
            self._materialize(x)
        w, b = self._parameters["weight"], self._parameters["bias"]
        conv = {1: NF.conv1d, 2: NF.conv2d, 3: NF.conv3d}[self.d]
        if self.padding_mode != "zeros":
            x = NF.pad(x, self.__dict__["_pad_twice"], mode=self.padding_mode)
            return conv(x, w, b, self.stride, 0, self.dilation, self.groups)
        return conv(x, w, b, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self) -> str:
        d = self.d
        s = (
            f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}"
        )
        if self.padding != (0,) * d:
            shown = self.padding if not isinstance(self.padding, str) else self.padding
            s += f", padding={shown}"
        if self.dilation != (1,) * d:
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self._parameters["bias"] is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class ConvTranspose(Conv):
    """nn.ConvTranspose1d / 2d: Conv's arguments and initialisation with the weight laid
    (in, out / groups, *k), plus output_padding; zeros padding only, as PyTorch's."""

    TRANSPOSED = True

    def __init__(
        self,
        d: int,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        padding: Any = 0,
        output_padding: Any = 0,
        groups: int = 1,
        bias: bool = True,
        dilation: Any = 1,
        padding_mode: str = "zeros",
        device: Any = None,
        dtype: Any = None,
        lazy: bool = False,
    ) -> None:
        if isinstance(padding, str):
            raise GradcliError(
                f"Invalid padding string {padding!r}: ConvTranspose takes integers"
            ).mirror("ValueError")
        if padding_mode != "zeros":
            raise GradcliError(
                f'Only "zeros" padding mode is supported for {type(self).__name__}'
            ).mirror("ValueError")
        super().__init__(
            d,
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            groups,
            bias,
            padding_mode,
            device,
            dtype,
            lazy,
        )
        self.output_padding = _ntuple(output_padding, d, "output_padding")

    @property
    def name(self) -> str:
        return f"{'Lazy' if '_lazy' in self.__dict__ else ''}ConvTranspose{self.d}d"

    def forward(self, x: Any, output_size: Any = None) -> Tensor:
        if "_lazy" in self.__dict__:
            self._materialize(x)
        w, b = self._parameters["weight"], self._parameters["bias"]
        conv = {1: NF.conv_transpose1d, 2: NF.conv_transpose2d, 3: NF.conv_transpose3d}[self.d]
        extra = self.output_padding if output_size is None else self._padding_for(x, output_size)
        return conv(x, w, b, self.stride, self.padding, extra, self.groups, self.dilation)

    def _padding_for(self, x: Any, output_size: Any) -> tuple[int, ...]:
        """The output_padding that makes forward(x, output_size) produce output_size: the
        spatial sizes (the trailing d entries of a full size are taken) must lie between the
        smallest output the stride allows and that plus stride - 1, as PyTorch's module."""
        from .printing import Size

        if isinstance(output_size, Tensor) or (
            isinstance(output_size, (list, tuple))
            and any(isinstance(v, Tensor) for v in output_size)
        ):
            raise NotSupported(
                f"{self.name}(x, output_size=<tensor>) is not supported by gradcli",
                hint="give output_size as a list of ints, e.g. `t.tolist()` or `[int(v) ...]`",
            )
        if not isinstance(output_size, (list, tuple)):
            raise GradcliError(f"object of type '{typename(output_size)}' has no len()").mirror(
                "TypeError"
            )
        if not isinstance(x, Tensor):
            raise GradcliError(f"'{typename(x)}' object has no attribute 'dim'").mirror(
                "AttributeError"
            )
        d = self.d
        lead = 2 if x.ndim == d + 2 else 1
        sizes = output_size[lead:] if len(output_size) == lead + d else output_size
        if isinstance(output_size, Size):
            sizes = Size(sizes)
        if len(sizes) != d:
            raise GradcliError(
                f"ConvTranspose{d}D: for {x.ndim}D input, output_size must have {d} "
                f"or {lead + d} elements (got {len(sizes)})"
            ).mirror("ValueError")
        for v in sizes:
            if not isinstance(v, (int, float, np.integer, np.floating)):
                raise (
                    GradcliError(
                        f"'<' not supported between instances of '{typename(v)}' and 'int'"
                    )
                    .pytorch()
                    .mirror("TypeError")
                )
        if x.ndim <= lead:
            span = max(x.ndim, 1)
            raise GradcliError(
                f"Dimension out of range (expected to be in range of [{-span}, {span - 1}], "
                f"but got {lead})"
            ).mirror("IndexError")
        lows = [
            (x.shape[lead + i] - 1) * self.stride[i]
            - 2 * self.padding[i]
            + self.dilation[i] * (self.kernel_size[i] - 1)
            + 1
            for i in range(d)
        ]
        highs = [lo + s - 1 for lo, s in zip(lows, self.stride, strict=True)]
        if any(not lo <= v <= hi for v, lo, hi in zip(sizes, lows, highs, strict=True)):
            raise GradcliError(
                f"requested an output size of {sizes}, but valid sizes range from {lows} "
                f"to {highs} (for an input of {Size(x.shape[2:])})"
            ).mirror("ValueError")
        for i, v in enumerate(sizes):  # the module hands PyTorch's parser a list (position 6)
            if isinstance(v, (float, np.floating)):
                fn = f"conv_transpose{d}d(): argument 'output_padding'"
                raise GradcliError(
                    f"{fn} (position 6) must be tuple of ints, but found element of type float "
                    "at pos 0"
                    if i == 0
                    else f"{fn} failed to unpack the object at pos {i + 1} with error "
                    '"type must be tuple of ints,but got float"'
                ).mirror("TypeError")
        return tuple(int(v) - lo for v, lo in zip(sizes, lows, strict=True))

    def extra_repr(self) -> str:
        s = super().extra_repr()
        if self.output_padding != (0,) * self.d:
            at = s.find(", groups=")
            at = s.find(", bias=") if at < 0 else at
            at = len(s) if at < 0 else at
            s = s[:at] + f", output_padding={self.output_padding}" + s[at:]
        return s


def ConvTranspose1d(*args: Any, **kwargs: Any) -> Module:  # noqa: N802
    return ConvTranspose(1, *args, **kwargs)


def ConvTranspose2d(*args: Any, **kwargs: Any) -> Module:  # noqa: N802
    return ConvTranspose(2, *args, **kwargs)


def ConvTranspose3d(*args: Any, **kwargs: Any) -> Module:  # noqa: N802
    return ConvTranspose(3, *args, **kwargs)


def Conv3d(*args: Any, **kwargs: Any) -> Module:  # noqa: N802
    return Conv(3, *args, **kwargs)


def Conv1d(*args: Any, **kwargs: Any) -> Module:  # noqa: N802
    return Conv(1, *args, **kwargs)


def Conv2d(*args: Any, **kwargs: Any) -> Module:  # noqa: N802
    return Conv(2, *args, **kwargs)


def _lazy_conv(d: int, out_channels: int, kernel_size: Any, *args: Any, **kwargs: Any) -> Module:
    return Conv(d, 0, out_channels, kernel_size, *args, lazy=True, **kwargs)


def LazyConv1d(*args: Any, **kwargs: Any) -> Module:  # noqa: N802
    return _lazy_conv(1, *args, **kwargs)


def LazyConv2d(*args: Any, **kwargs: Any) -> Module:  # noqa: N802
    return _lazy_conv(2, *args, **kwargs)


def LazyConv3d(*args: Any, **kwargs: Any) -> Module:  # noqa: N802
    return _lazy_conv(3, *args, **kwargs)


def _lazy_conv_transpose(
    d: int, out_channels: int, kernel_size: Any, *args: Any, **kwargs: Any
) -> Module:
    return ConvTranspose(d, 0, out_channels, kernel_size, *args, lazy=True, **kwargs)


def LazyConvTranspose1d(*args: Any, **kwargs: Any) -> Module:  # noqa: N802
    return _lazy_conv_transpose(1, *args, **kwargs)


def LazyConvTranspose2d(*args: Any, **kwargs: Any) -> Module:  # noqa: N802
    return _lazy_conv_transpose(2, *args, **kwargs)


def LazyConvTranspose3d(*args: Any, **kwargs: Any) -> Module:  # noqa: N802
    return _lazy_conv_transpose(3, *args, **kwargs)


# --- pooling -------------------------------------------------------------------------------------


class Pool(Module):
    ATTRIBUTES = ("training", "kernel_size", "stride", "padding", "dilation", "ceil_mode")

    def __init__(self, name: str, fn: Callable[..., Any], args: dict, shown: str) -> None:
        super().__init__()
        self._name, self.fn, self.args, self.shown = name, fn, args, shown
        self.ATTRIBUTES = ("training", *args)
        for k, v in args.items():
            setattr(self, k, v)

    @property
    def name(self) -> str:
        return self._name

    def forward(self, x: Any) -> Any:
        return self.fn(x, **self.args)

    def program_set(self, name: str, value: Any) -> None:
        """`pool.kernel_size = 3`: the setting changed for the calls that follow and for the
        text, as PyTorch's forward and extra_repr read the attribute (refused where the text
        cannot follow, never ignored)."""
        if name not in self.args:
            super().program_set(name, value)
            return
        if value is not None and not isinstance(value, (bool, int, float, tuple, list)):
            raise NotSupported(
                f"setting {self.name}.{name} to a {typename(value)} is not supported",
                hint="give it a number, a bool or a tuple as PyTorch's module has",
            )
        old = self.args[name]
        text = self.shown if old == value else _reshown(self.shown, name, old, value)
        if text is None:
            if f"{name}=" in self.shown:
                raise NotSupported(
                    f"changing {self.name}.{name} after the module is made is not supported by "
                    "gradcli",
                    hint=f"make a new module: nn.{self.name}({name}=...)",
                )
            text = self.shown  # (a setting the text does not show)
        self.args[name] = value
        setattr(self, name, value)
        self.shown = text

    def extra_repr(self) -> str:
        return self.shown


def _max_pool_module(d: int) -> Callable[..., Module]:
    name = f"MaxPool{d}d"

    def make(
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        dilation: Any = 1,
        return_indices: bool = False,
        ceil_mode: bool = False,
    ) -> Module:
        st = stride if stride is not None else kernel_size
        shown = (
            f"kernel_size={kernel_size}, stride={st}, padding={padding}, dilation={dilation}, "
            f"ceil_mode={ceil_mode}"
        )
        args = {
            "kernel_size": kernel_size,
            "stride": st,
            "padding": padding,
            "dilation": dilation,
            "ceil_mode": ceil_mode,
            "return_indices": return_indices,
        }
        return Pool(name, {1: NF.max_pool1d, 2: NF.max_pool2d, 3: NF.max_pool3d}[d], args, shown)

    make.__name__ = name
    return make


def AvgPool1d(  # noqa: N802
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Module:
    k = _ntuple(kernel_size, 1, "kernel_size")
    st = _ntuple(stride if stride is not None else kernel_size, 1, "stride")
    p = _ntuple(padding, 1, "padding")
    args = {
        "kernel_size": k,
        "stride": st,
        "padding": p,
        "ceil_mode": ceil_mode,
        "count_include_pad": count_include_pad,
    }
    return Pool("AvgPool1d", NF.avg_pool1d, args, f"kernel_size={k}, stride={st}, padding={p}")


def AvgPool2d(  # noqa: N802
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: Any = None,
) -> Module:
    st = stride if stride is not None else kernel_size
    args = {
        "kernel_size": kernel_size,
        "stride": st,
        "padding": padding,
        "ceil_mode": ceil_mode,
        "count_include_pad": count_include_pad,
        "divisor_override": divisor_override,
    }
    return Pool(
        "AvgPool2d",
        NF.avg_pool2d,
        args,
        f"kernel_size={kernel_size}, stride={st}, padding={padding}",
    )


def AvgPool3d(  # noqa: N802
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: Any = None,
) -> Module:
    st = stride if stride is not None else kernel_size
    args = {
        "kernel_size": kernel_size,
        "stride": st,
        "padding": padding,
        "ceil_mode": ceil_mode,
        "count_include_pad": count_include_pad,
        "divisor_override": divisor_override,
    }
    return Pool(
        "AvgPool3d",
        NF.avg_pool3d,
        args,
        f"kernel_size={kernel_size}, stride={st}, padding={padding}",
    )


def _adaptive_max_module(name: str, d: int) -> Callable[..., Module]:
    def make(output_size: Any, return_indices: bool = False) -> Module:
        from . import extras

        fn = {
            1: extras.adaptive_max_pool1d,
            2: extras.adaptive_max_pool2d,
            3: extras.adaptive_max_pool3d,
        }[d]
        return Applied(
            name,
            fn,
            {"output_size": output_size, "return_indices": return_indices},
            f"output_size={output_size}",
        )

    make.__name__ = name
    return make


def _fractional_module(name: str, d: int) -> Callable[..., Module]:
    """nn.FractionalMaxPool2d/3d: F.fractional_max_pool2d/3d with the module's settings (its
    samples drawn at each call unless given); printed without arguments, as PyTorch's."""

    def make(
        kernel_size: Any,
        output_size: Any = None,
        output_ratio: Any = None,
        return_indices: bool = False,
        _random_samples: Any = None,
    ) -> Module:
        from . import fractional as FR

        kernel, size, ratio = FR._module_args(name, d, kernel_size, output_size, output_ratio)
        fn = FR.fractional_max_pool2d if d == 2 else FR.fractional_max_pool3d
        kwargs = {
            "kernel_size": kernel,
            "output_size": size,
            "output_ratio": ratio,
            "return_indices": return_indices,
            "_random_samples": _random_samples,
        }
        settings = {k: v for k, v in kwargs.items() if k != "_random_samples"}
        return Applied(name, fn, kwargs, "", settings=settings)

    make.__name__ = name
    return make


def _fractional(name: str) -> Callable[..., Any]:
    """F.fractional_max_pool2d and its kin (`surface.fractional`, imported on first call)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        from . import fractional as FR

        return getattr(FR, name)(*args, **kwargs)

    call.__name__ = name
    return call


def Unfold(  # noqa: N802
    kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1
) -> Module:
    """nn.Unfold: F.unfold with its arguments kept as given (the repr shows them so)."""
    return Applied(
        "Unfold",
        NF.unfold,
        {"kernel_size": kernel_size, "dilation": dilation, "padding": padding, "stride": stride},
        f"kernel_size={kernel_size}, dilation={dilation}, padding={padding}, stride={stride}",
    )


def Fold(  # noqa: N802
    output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1
) -> Module:
    """nn.Fold: F.fold with its arguments kept as given."""
    return Applied(
        "Fold",
        NF.fold,
        {
            "output_size": output_size,
            "kernel_size": kernel_size,
            "dilation": dilation,
            "padding": padding,
            "stride": stride,
        },
        f"output_size={output_size}, kernel_size={kernel_size}, dilation={dilation}, "
        f"padding={padding}, stride={stride}",
    )


def PixelShuffle(upscale_factor: int) -> Module:  # noqa: N802
    from .extras import pixel_shuffle

    return Applied(
        "PixelShuffle",
        pixel_shuffle,
        {"upscale_factor": upscale_factor},
        f"upscale_factor={upscale_factor}",
    )


def PixelUnshuffle(downscale_factor: int) -> Module:  # noqa: N802
    from .extras import pixel_unshuffle

    return Applied(
        "PixelUnshuffle",
        pixel_unshuffle,
        {"downscale_factor": downscale_factor},
        f"downscale_factor={downscale_factor}",
    )


class RReLU(Module):
    """nn.RReLU: random slopes in training mode, their mean in evaluation mode."""

    ATTRIBUTES = ("training", "lower", "upper", "inplace")

    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3, inplace: bool = False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, x: Any) -> Tensor:
        from .extras import rrelu

        return rrelu(x, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        return _inplace_shown(f"lower={self.lower}, upper={self.upper}", self.inplace)


def MultiMarginLoss(  # noqa: N802
    p: int = 1,
    margin: float = 1.0,
    weight: Any = None,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Module:
    from .extras import multi_margin_loss

    if p not in (1, 2):
        raise GradcliError("only p == 1 and p == 2 supported").mirror("ValueError")
    if weight is not None and (not isinstance(weight, Tensor) or weight.ndim != 1):
        raise GradcliError("MultiMarginLoss: expected weight to be None or 1D tensor").mirror(
            "ValueError"
        )
    return _loss(
        "MultiMarginLoss",
        multi_margin_loss,
        {
            "p": p,
            "margin": margin,
            "weight": weight,
            "size_average": size_average,
            "reduce": reduce,
            "reduction": reduction,
        },
    )


class EmbeddingBag(Module):
    """nn.EmbeddingBag: an embedding table (drawn as nn.Embedding's) reduced per bag
    (`extras.embedding_bag`)."""

    CLASS_FUNCTIONS = ("from_pretrained",)
    METHODS = Module.METHODS + ("reset_parameters", "from_pretrained")
    ATTRIBUTES = (
        "training",
        "num_embeddings",
        "embedding_dim",
        "max_norm",
        "norm_type",
        "scale_grad_by_freq",
        "mode",
        "sparse",
        "include_last_offset",
        "padding_idx",
    )

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        mode: str = "mean",
        sparse: bool = False,
        _weight: Any = None,
        include_last_offset: bool = False,
        padding_idx: int | None = None,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        from .nn import Embedding

        super().__init__()
        inner = Embedding(num_embeddings, embedding_dim, padding_idx, _weight=_weight, dtype=dtype)
        self.num_embeddings, self.embedding_dim = inner.num_embeddings, inner.embedding_dim
        self.padding_idx = inner.padding_idx
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = bool(scale_grad_by_freq), bool(sparse)
        self.mode, self.include_last_offset = mode, bool(include_last_offset)
        self.register_parameter("weight", inner._parameters["weight"])

    def reset_parameters(self) -> None:
        from .nn import reset_embedding

        reset_embedding(self)

    @staticmethod
    def from_pretrained(
        embeddings: Any,
        freeze: bool = True,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        mode: str = "mean",
        sparse: bool = False,
        include_last_offset: bool = False,
        padding_idx: int | None = None,
    ) -> EmbeddingBag:
        """`nn.EmbeddingBag.from_pretrained(weight)`: the rows given, frozen unless
        freeze=False."""
        if not isinstance(embeddings, Tensor):
            raise GradcliError(
                f"from_pretrained(): embeddings must be a Tensor, not {typename(embeddings)}"
            ).mirror("TypeError")
        if embeddings.ndim != 2:
            raise GradcliError("Embeddings parameter is expected to be 2-dimensional").mirror(
                "AssertionError"
            )
        rows, cols = embeddings.shape
        bag = EmbeddingBag(
            rows,
            cols,
            max_norm,
            norm_type,
            scale_grad_by_freq,
            mode,
            sparse,
            embeddings,
            include_last_offset,
            padding_idx,
        )
        bag._parameters["weight"].requires_grad = not freeze
        return bag

    def forward(self, x: Any, offsets: Any = None, per_sample_weights: Any = None) -> Tensor:
        return X.embedding_bag(
            x,
            self._parameters["weight"],
            offsets,
            self.max_norm,
            self.norm_type,
            self.scale_grad_by_freq,
            self.mode,
            self.sparse,
            per_sample_weights,
            self.include_last_offset,
            self.padding_idx,
        )

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq:
            s += ", scale_grad_by_freq=True"
        s += f", mode={self.mode!r}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        return s


class _MaxUnpool(Module):
    ATTRIBUTES = ("training", "kernel_size", "stride", "padding")
    D = 2

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        d = self.D
        self.kernel_size = X._tuple_of(kernel_size, d)
        self.stride = X._tuple_of(stride if stride is not None else kernel_size, d)
        self.padding = X._tuple_of(padding, d)

    def forward(self, x: Any, indices: Any, output_size: Any = None) -> Tensor:
        fn = {1: X.max_unpool1d, 2: X.max_unpool2d, 3: X.max_unpool3d}[self.D]
        return fn(x, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpool):
    D = 1


class MaxUnpool2d(_MaxUnpool):
    D = 2


class MaxUnpool3d(_MaxUnpool):
    D = 3


class _LPPool(Module):
    """nn.LPPool1d / 2d / 3d: F.lp_poolNd with the module's settings, kept as given (the
    norm passed on as a float, as PyTorch's forward does)."""

    ATTRIBUTES = ("training", "norm_type", "kernel_size", "stride", "ceil_mode")
    D = 1

    def __init__(
        self, norm_type: Any, kernel_size: Any, stride: Any = None, ceil_mode: bool = False
    ) -> None:
        super().__init__()
        self.norm_type, self.kernel_size = norm_type, kernel_size
        self.stride, self.ceil_mode = stride, ceil_mode

    def forward(self, x: Any) -> Tensor:
        fn = {1: X.lp_pool1d, 2: X.lp_pool2d, 3: X.lp_pool3d}[self.D]
        return fn(x, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)

    def extra_repr(self) -> str:
        return (
            f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}, ceil_mode={self.ceil_mode}"
        )


class LPPool1d(_LPPool):
    D = 1


class LPPool2d(_LPPool):
    D = 2


class LPPool3d(_LPPool):
    D = 3


class DataParallel(Module):
    """nn.DataParallel on a machine without accelerators, as PyTorch builds it there: the
    module is kept as the submodule `module` (state_dict keys prefixed `module.`), device_ids
    is empty and forward passes everything through to it."""

    ATTRIBUTES = ("training", "device_ids")

    def __init__(
        self, module: Any, device_ids: Any = None, output_device: Any = None, dim: int = 0
    ) -> None:
        super().__init__()
        self.add_module("module", module)
        self.device_ids: list = []

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self._modules["module"](*inputs, **kwargs)


def ChannelShuffle(groups: Any) -> Module:  # noqa: N802
    return Applied("ChannelShuffle", X.channel_shuffle, {"groups": groups}, f"groups={groups}")


class TripletMarginWithDistanceLoss(Module):
    """nn.TripletMarginWithDistanceLoss: F.triplet_margin_with_distance_loss with the
    module's settings; the distance a module (PairwiseDistance() unless given), registered
    as the submodule `distance_function`, or any callable kept as a plain attribute."""

    ATTRIBUTES = ("training", "margin", "swap", "reduction")

    def __init__(
        self,
        *,
        distance_function: Any = None,
        margin: float = 1.0,
        swap: bool = False,
        reduction: str = "mean",
    ) -> None:
        super().__init__()
        reduction_arg(reduction)
        if margin <= 0:
            raise GradcliError(
                "TripletMarginWithDistanceLoss: expected margin to be greater than 0, got "
                f"{margin} instead"
            ).mirror("ValueError")
        distance = PairwiseDistance() if distance_function is None else distance_function
        if isinstance(distance, Module):
            self.add_module("distance_function", distance)
        else:
            self.__dict__["_distance"] = distance
        self.margin, self.swap, self.reduction = margin, swap, reduction

    def _attr_distance_function(self) -> Any:
        return self.__dict__.get("_distance")

    def forward(self, anchor: Any, positive: Any, negative: Any) -> Tensor:
        distance = self._modules.get("distance_function") or self.__dict__.get("_distance")
        return X.triplet_margin_with_distance_loss(
            anchor,
            positive,
            negative,
            distance_function=distance,
            margin=self.margin,
            swap=self.swap,
            reduction=self.reduction,
        )


def MultiLabelMarginLoss(  # noqa: N802
    size_average: Any = None, reduce: Any = None, reduction: str = "mean"
) -> Module:
    return _loss(
        "MultiLabelMarginLoss",
        X.multilabel_margin_loss,
        {"size_average": size_average, "reduce": reduce, "reduction": reduction},
    )


def _constructor(cls: type) -> Callable[..., Module]:
    def make(*args: Any, **kwargs: Any) -> Module:
        return cls(*args, **kwargs)

    make.__name__ = cls.__name__
    return make


# The records of the padding modules, by kind: a constant canvas the input is put into, or
# the input's own elements picked.
_PAD_RECORDS = {
    "Constant": "composition of index_put add",
    "Zero": "composition of index_put",
    "Reflection": "composition of index",
    "Replication": "composition of index",
    "Circular": "composition of index",
}
NAMES = declare(
    ("ELU", "nn", ELU, "elu"),
    ("SELU", "nn", SELU, "elu"),
    ("CELU", "nn", CELU, "elu"),
    ("Hardtanh", "nn", Hardtanh, "hardtanh"),
    ("ReLU6", "nn", ReLU6, "hardtanh"),
    ("Softsign", "nn", Softsign, "composition of abs add div"),
    ("Tanhshrink", "nn", Tanhshrink, "composition of tanh sub"),
    ("Mish", "nn", Mish, "mish"),
    ("Hardswish", "nn", Hardswish, "hardswish"),
    ("Hardsigmoid", "nn", Hardsigmoid, "hardsigmoid"),
    ("Softmin", "nn", Softmin, "composition of neg softmax"),
    ("Softshrink", "nn", Softshrink, "softshrink"),
    ("Hardshrink", "nn", Hardshrink, "hardshrink"),
    ("Threshold", "nn", Threshold, "threshold"),
    ("GLU", "nn", GLU, "glu"),
    ("CosineSimilarity", "nn", CosineSimilarity, "composition of norm mul sum div"),
    ("PairwiseDistance", "nn", PairwiseDistance, "composition of sub add norm"),
    ("SmoothL1Loss", "nn", SmoothL1Loss, "smooth_l1_loss"),
    ("HuberLoss", "nn", HuberLoss, "huber_loss"),
    ("KLDivLoss", "nn", KLDivLoss, "composition of xlogy sub mul mean"),
    ("SoftMarginLoss", "nn", SoftMarginLoss, "soft_margin_loss"),
    ("PoissonNLLLoss", "nn", PoissonNLLLoss, "composition of exp mul sub mean"),
    ("MarginRankingLoss", "nn", MarginRankingLoss, "composition of sub mul add clamp mean"),
    ("HingeEmbeddingLoss", "nn", HingeEmbeddingLoss, "composition of sub add clamp where mean"),
    (
        "CosineEmbeddingLoss",
        "nn",
        CosineEmbeddingLoss,
        "composition of mul sum add sqrt div sub clamp where mean",
    ),
    ("TripletMarginLoss", "nn", TripletMarginLoss, "composition of sub add norm clamp mean"),
    (
        "GaussianNLLLoss",
        "nn",
        GaussianNLLLoss,
        "composition of sub pow_scalar div log add mul mean clone",
    ),
    (
        "MultiLabelSoftMarginLoss",
        "nn",
        MultiLabelSoftMarginLoss,
        "composition of logsigmoid neg mul sub add sum div mean",
    ),
    ("CTCLoss", "nn", CTCLoss, "composition of ctc_loss where div mean sum reshape"),
    ("Conv1d", "nn", Conv1d, "conv"),
    ("Conv2d", "nn", Conv2d, "conv"),
    ("LazyConv1d", "nn", LazyConv1d, "conv"),
    ("LazyConv2d", "nn", LazyConv2d, "conv"),
    ("LazyConv3d", "nn", LazyConv3d, "conv"),
    ("ConvTranspose1d", "nn", ConvTranspose1d, "conv_transpose"),
    ("ConvTranspose2d", "nn", ConvTranspose2d, "conv_transpose"),
    ("Conv3d", "nn", Conv3d, "conv"),
    ("ConvTranspose3d", "nn", ConvTranspose3d, "conv_transpose"),
    ("LazyConvTranspose1d", "nn", LazyConvTranspose1d, "conv_transpose"),
    ("LazyConvTranspose2d", "nn", LazyConvTranspose2d, "conv_transpose"),
    ("LazyConvTranspose3d", "nn", LazyConvTranspose3d, "conv_transpose"),
    ("AvgPool1d", "nn", AvgPool1d, "avg_pool reshape"),
    ("AvgPool2d", "nn", AvgPool2d, "avg_pool"),
    ("AvgPool3d", "nn", AvgPool3d, "avg_pool"),
    *((name, "nn", make, _PAD_RECORDS[name[:-5]]) for name, make in PADDING_MODULES.items()),
    ("MaxPool1d", "nn", _max_pool_module(1), "max_pool reshape"),
    ("MaxPool2d", "nn", _max_pool_module(2), "max_pool"),
    ("MaxPool3d", "nn", _max_pool_module(3), "max_pool"),
    ("LayerNorm", "nn", _constructor(LayerNorm), "layer_norm"),
    ("RMSNorm", "nn", _constructor(RMSNorm), "composition of pow_scalar mean add rsqrt mul"),
    ("rms_norm", "torch", NF.rms_norm, "composition of pow_scalar mean add rsqrt mul"),
    ("PReLU", "nn", _constructor(PReLU), "prelu_kernel reshape"),
    (
        "AdaptiveAvgPool2d",
        "nn",
        _adaptive_module("AdaptiveAvgPool2d", adaptive_avg_pool2d),
        "adaptive_avg_pool mean index add sum div stack reshape",
    ),
    (
        "AdaptiveAvgPool1d",
        "nn",
        _adaptive_module("AdaptiveAvgPool1d", adaptive_avg_pool1d),
        "adaptive_avg_pool mean index add sum div stack reshape",
    ),
    (
        "adaptive_avg_pool2d",
        "torch F",
        adaptive_avg_pool2d,
        "adaptive_avg_pool mean index add sum div stack reshape",
    ),
    (
        "AdaptiveAvgPool3d",
        "nn",
        _adaptive_module("AdaptiveAvgPool3d", adaptive_avg_pool3d),
        "adaptive_avg_pool mean index add sum div stack reshape",
    ),
    (
        "adaptive_avg_pool3d",
        "F",
        adaptive_avg_pool3d,
        "adaptive_avg_pool mean index add sum div stack reshape",
    ),
    (
        "adaptive_avg_pool1d",
        "torch F",
        adaptive_avg_pool1d,
        "adaptive_avg_pool mean index add sum div stack reshape",
    ),
    ("prelu", "torch F", prelu, "prelu_kernel reshape"),
    *(  # batch_norm's record in training, a composition in evaluation
        (cls.__name__, "nn", _constructor(cls), "batch_norm")
        for cls in (
            BatchNorm1d,
            BatchNorm2d,
            BatchNorm3d,
            LazyBatchNorm1d,
            LazyBatchNorm2d,
            LazyBatchNorm3d,
        )
    ),
    ("GroupNorm", "nn", _constructor(GroupNorm), "group_norm"),
    *(  # batch_norm's record over the samples' channels (training) or a composition
        (cls.__name__, "nn", _constructor(cls), "batch_norm reshape")
        for cls in (InstanceNorm1d, InstanceNorm2d, InstanceNorm3d)
    ),
    *(  # affine by default: the weight and bias repeated for each sample (cat)
        (
            cls.__name__,
            "nn",
            _constructor(cls),
            "batch_norm reshape cat",
        )
        for cls in (LazyInstanceNorm1d, LazyInstanceNorm2d, LazyInstanceNorm3d)
    ),
    (
        "LocalResponseNorm",
        "nn",
        _constructor(LocalResponseNorm),
        "composition of mul pow_scalar add div avg_pool index_put reshape",
    ),
    (
        "AdaptiveMaxPool1d",
        "nn",
        _adaptive_max_module("AdaptiveMaxPool1d", 1),
        "composition of index reshape",
    ),
    (
        "AdaptiveMaxPool2d",
        "nn",
        _adaptive_max_module("AdaptiveMaxPool2d", 2),
        "composition of index reshape",
    ),
    (
        "AdaptiveMaxPool3d",
        "nn",
        _adaptive_max_module("AdaptiveMaxPool3d", 3),
        "composition of index reshape",
    ),
    (
        "FractionalMaxPool2d",
        "nn",
        _fractional_module("FractionalMaxPool2d", 2),
        "composition of index reshape",
    ),
    (
        "FractionalMaxPool3d",
        "nn",
        _fractional_module("FractionalMaxPool3d", 3),
        "composition of index reshape",
    ),
    *(
        (n, "F", _fractional(n), "composition of index reshape")
        for n in (
            "fractional_max_pool2d",
            "fractional_max_pool3d",
            "fractional_max_pool2d_with_indices",
            "fractional_max_pool3d_with_indices",
        )
    ),
    ("PixelShuffle", "nn", PixelShuffle, "composition of reshape permute"),
    ("ChannelShuffle", "nn", ChannelShuffle, "composition of reshape permute"),
    ("channel_shuffle", "torch F", X.channel_shuffle, "composition of reshape permute"),
    ("pdist", "torch F", X.pdist, "pdist cdist index"),
    (
        "TripletMarginWithDistanceLoss",
        "nn",
        _constructor(TripletMarginWithDistanceLoss),
        "composition of sub add norm clamp mean",
    ),
    (
        "triplet_margin_with_distance_loss",
        "F",
        X.triplet_margin_with_distance_loss,
        "composition of sub add norm clamp mean",
    ),
    ("Unfold", "nn", Unfold, "unfold reshape"),
    ("DataParallel", "nn", _constructor(DataParallel), ""),
    (
        "AdaptiveLogSoftmaxWithLoss",
        "nn",
        _nn_constructor(AdaptiveLogSoftmaxWithLoss),
        "composition of matmul permute log_softmax index scatter add mean neg reshape",
    ),
    (
        "LinearCrossEntropyLoss",
        "nn",
        _nn_constructor(LinearCrossEntropyLoss),
        "composition of matmul permute add reshape log_softmax nll_loss mul neg sum div "
        "times_scalar where",
    ),
    (
        "linear_cross_entropy",
        "F",
        linear_cross_entropy,
        "composition of matmul permute add reshape log_softmax nll_loss mul neg sum div "
        "times_scalar where",
    ),
    ("segment_reduce", "torch", X.segment_reduce, "segment_reduce"),
    ("Fold", "nn", Fold, "fold reshape"),
    ("PixelUnshuffle", "nn", PixelUnshuffle, "composition of reshape permute"),
    ("RReLU", "nn", _constructor(RReLU), "rrelu_noise"),
    (
        "MultiMarginLoss",
        "nn",
        MultiMarginLoss,
        "composition of index sub add where mul sum div mean",
    ),
    ("instance_norm", "torch", X.torch_instance_norm, "batch_norm reshape cat"),
    ("instance_norm", "F", X.instance_norm, "batch_norm reshape cat"),
    (
        "local_response_norm",
        "F",
        X.local_response_norm,
        "composition of mul pow_scalar add div avg_pool index_put reshape",
    ),
    ("adaptive_max_pool1d", "F", X.adaptive_max_pool1d, "composition of index reshape"),
    (
        "adaptive_max_pool1d",
        "torch",
        X.torch_adaptive_max_pool1d,
        "composition of index reshape",
    ),
    ("adaptive_max_pool2d", "F", X.adaptive_max_pool2d, "composition of index reshape"),
    ("adaptive_max_pool3d", "F", X.adaptive_max_pool3d, "composition of index reshape"),
    (
        "adaptive_max_pool1d_with_indices",
        "F",
        X.adaptive_max_pool1d_with_indices,
        "composition of index reshape",
    ),
    (
        "adaptive_max_pool2d_with_indices",
        "F",
        X.adaptive_max_pool2d_with_indices,
        "composition of index reshape",
    ),
    (
        "adaptive_max_pool3d_with_indices",
        "F",
        X.adaptive_max_pool3d_with_indices,
        "composition of index reshape",
    ),
    ("pixel_shuffle", "torch F", X.pixel_shuffle, "composition of reshape permute"),
    ("pixel_unshuffle", "torch F", X.pixel_unshuffle, "composition of reshape permute"),
    ("rrelu", "torch F", X.rrelu, "composition of leaky_relu rrelu_noise"),
    ("rrelu_", "torch F", X.rrelu_, "composition of leaky_relu rrelu_noise"),
    ("gumbel_softmax", "F", X.gumbel_softmax, "composition of add div softmax"),
    (
        "multi_margin_loss",
        "F",
        X.multi_margin_loss,
        "composition of index sub add where mul sum div mean",
    ),
    ("EmbeddingBag", "nn", _nn_constructor(EmbeddingBag), "composition of index scatter_add div"),
    (
        "embedding_bag",
        "F",
        X.embedding_bag,
        "composition of index scatter_add div mul where reshape",
    ),
    *(
        (cls.__name__, "nn", _constructor(cls), "composition of scatter reshape")
        for cls in (MaxUnpool1d, MaxUnpool2d, MaxUnpool3d)
    ),
    ("max_unpool1d", "F", X.max_unpool1d, "composition of scatter reshape"),
    ("max_unpool3d", "F", X.max_unpool3d, "composition of scatter reshape"),
    (
        "LPPool1d",
        "nn",
        _constructor(LPPool1d),
        "composition of pow_scalar avg_pool sign abs relu mul max_pool neg reshape",
    ),
    *(
        (
            cls.__name__,
            "nn",
            _constructor(cls),
            "composition of pow_scalar avg_pool sign abs relu mul max_pool neg",
        )
        for cls in (LPPool2d, LPPool3d)
    ),
    (
        "lp_pool1d",
        "F",
        X.lp_pool1d,
        "composition of pow_scalar avg_pool sign abs relu mul max_pool neg reshape",
    ),
    (
        "lp_pool2d",
        "F",
        X.lp_pool2d,
        "composition of pow_scalar avg_pool sign abs relu mul max_pool neg",
    ),
    (
        "lp_pool3d",
        "F",
        X.lp_pool3d,
        "composition of pow_scalar avg_pool sign abs relu mul max_pool neg",
    ),
    ("max_unpool2d", "F", X.max_unpool2d, "composition of scatter reshape"),
    (
        "MultiLabelMarginLoss",
        "nn",
        MultiLabelMarginLoss,
        "composition of index sub add where sum div mean reshape",
    ),
    (
        "multilabel_margin_loss",
        "F",
        X.multilabel_margin_loss,
        "composition of index sub add where sum div mean reshape",
    ),
    ("cholesky_solve", "torch Tensor", X.cholesky_solve, "composition of where sub solve permute"),
    ("matrix_exp", "torch Tensor linalg", X.matrix_exp, "matrix_exp"),
    ("lstsq", "linalg", X.lstsq, "composition of pinv matmul reshape"),
    ("histogram", "torch Tensor", X.histogram, ""),
    ("histogramdd", "torch", X.histogramdd, ""),
    ("cov", "torch Tensor", X.cov, "composition of sum div sub mul matmul permute reshape"),
    ("matrix_rank", "linalg", X.matrix_rank, ""),
    ("cond", "linalg", X.cond, "composition of svdvals index div reshape"),
    ("addr", "torch", OV.torch_form("addr", X.addr), "composition of addr expand"),
    (
        "addr",
        "Tensor",
        OV.method_form("addr", X.addr),
        "composition of addr expand",
    ),
    (
        "addr_",
        "Tensor",
        _method_(OV.method_form("addr_", X.addr), "addr"),
        "composition of addr expand",
    ),
    (
        "addbmm",
        "torch",
        OV.torch_form("addbmm", X.addbmm),
        "composition of addbmm expand",
    ),
    (
        "addbmm",
        "Tensor",
        OV.method_form("addbmm", X.addbmm),
        "composition of addbmm expand",
    ),
    (
        "addbmm_",
        "Tensor",
        _method_(OV.method_form("addbmm_", X.addbmm), "addbmm"),
        "composition of addbmm expand",
    ),
    ("renorm", "torch Tensor", X.renorm, "renorm"),
    (
        "corrcoef",
        "torch Tensor",
        X.corrcoef,
        "composition of mean sub permute matmul div index sqrt reshape clamp",
    ),
)
