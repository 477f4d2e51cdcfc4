"""Every user-facing name of the PyTorch surface: the Tensor methods (`METHODS`), the functions
reachable as torch.X / F.X (`FUNCTIONS`), the `torch.nn` modules (`MODULES`); importing this
module installs the methods, the comparison and indexing operators, `.T` / `.mT` and the
PyTorch repr on `Tensor`.

These tables are what the interpreter's namespaces, the catalog (`gradcli ops`) and the README
table read: the seam for one declaration per user-facing name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.dtypes import LEGACY_TYPES
from ..core.tensor import Tensor
from ..ops import elementwise as E
from ..ops.arithmetic import (
    abs,
    cos,
    div_t,
    erf,
    exp,
    log,
    log1p,
    matmul,
    mul_t,
    neg,
    pow,
    sigmoid,
    sign,
    sin,
    sqrt,
    tan,
    tanh,
    unary,
)
from . import basics, composite, layers, predicates, rearrange, sampling, statistics
from . import elementwise as EW
from . import indexing as I
from . import linalg as LA
from . import nnfunctional as NF
from . import nnlosses as NL
from . import scatter as _scatter
from .args import check_dim, cpu_device
from .constructors import (
    BoolTensor,
    ByteTensor,
    DoubleTensor,
    FloatTensor,
    IntTensor,
    LongTensor,
    Variable,
    arange,
    as_tensor,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    legacy_tensor,
    linspace,
    logspace,
    ones,
    ones_like,
    tensor,
    zeros,
    zeros_like,
)
from .functional import (  # noqa: A004 - torch.sum, torch.max, torch.min
    INPLACE,
    T,
    add,
    amax,
    amin,
    argmax,
    argmin,
    bmm,
    broadcast_to,
    cat,
    clamp,
    clamp_max,
    clamp_min,
    clone,
    dot,
    eq,
    expand,
    expand_as,
    f_log_softmax,
    f_softmax,
    flatten,
    ge,
    gelu,
    ger,
    gt,
    le,
    leaky_relu,
    log_softmax,
    logsumexp,
    lt,
    max,
    maximum,
    mean,
    min,
    minimum,
    mm,
    mT,
    mv,
    ne,
    norm,
    outer,
    permute,
    prod,
    relu,
    reshape,
    reshape_as,
    softmax,
    softplus,
    squeeze,
    stack,
    std,
    sub,
    sum,
    t,
    to_dtype,
    transpose,
    unsqueeze,
    var,
    view,
    view_as,
    where,
)
from .functional import _method_ as inplace_method
from .indexing import getitem
from .losses import binary_cross_entropy, cross_entropy, mse_loss, nll_loss
from .nn import MODULES as _NN_MODULES
from .printing import Size, tensor_repr


def _method_sizes(fn: Callable[..., Tensor]) -> Callable[..., Tensor]:
    def m(self: Tensor, *sizes: Any) -> Tensor:
        return fn(self, *sizes)

    return m


def _size(self: Tensor, dim: Any = None) -> Any:
    if dim is None:
        return Size(self.shape)
    return self.shape[check_dim(dim, self.ndim)]


def _tolist(self: Tensor) -> Any:
    return self.data.tolist()


def _to(self: Tensor, *args: Any, dtype: Any = None, device: Any = None, **kw: Any) -> Tensor:
    """`x.to(dtype)`, `x.to("cpu")`, `x.to(device, dtype)`, `x.to(other)`."""
    for a in args:
        if isinstance(a, str):
            device = a
        elif isinstance(a, Tensor):
            dtype = a.dtype
        elif dtype is None:
            dtype = a
    if isinstance(device, str):
        cpu_device(device)
    return self if dtype is None else to_dtype(self, dtype)


def _type(self: Tensor, dtype: Any = None, non_blocking: bool = False) -> Any:
    """`x.type()`: its legacy type name ('torch.FloatTensor'); `x.type(torch.float64)` or
    `x.type('torch.DoubleTensor')`: the tensor in that type."""
    if dtype is None:
        return LEGACY_TYPES[self.dtype]
    legacy = {
        FloatTensor: np.float32,
        DoubleTensor: np.float64,
        LongTensor: np.int64,
        IntTensor: np.int32,
        BoolTensor: np.bool_,
        ByteTensor: np.uint8,
    }
    if callable(dtype) and dtype in legacy:  # x.type(torch.DoubleTensor)
        return to_dtype(self, np.dtype(legacy[dtype]))
    if isinstance(dtype, str):
        by_name = {name: dt for dt, name in LEGACY_TYPES.items()}
        if dtype not in by_name:
            raise GradcliError(f"invalid type: {dtype!r}").mirror("ValueError")
        dtype = by_name[dtype]
    elif not isinstance(dtype, np.dtype) and not (
        isinstance(dtype, type) and issubclass(dtype, np.generic)
    ):
        raise GradcliError("dtype must be a type, str, or dtype object").mirror("TypeError")
    return to_dtype(self, dtype)


def _where_method(self: Tensor, condition: Any, y: Any) -> Tensor:
    """`x.where(condition, y)`: `torch.where(condition, x, y)`."""
    return where(condition, self, y)


def _numpy(self: Tensor, force: bool = False) -> Tensor:
    if self.requires_grad and not force:
        raise GradcliError(
            "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.",
            hint="a NumPy array is outside the graph: no gradient flows through it",
        )
    return self


def _detach(self: Tensor) -> Tensor:
    # The same storage and version counter (changes in place through it count), no graph.
    return self.detach()


METHODS: dict[str, Callable[..., Any]] = {
    # arithmetic
    "add": add,
    "sub": sub,
    "mul": mul_t,
    "div": div_t,
    "multiply": mul_t,
    "divide": div_t,
    "subtract": sub,
    "true_divide": div_t,
    "pow": pow,
    "neg": neg,
    "negative": neg,
    "matmul": matmul,
    "mm": mm,
    "mv": mv,
    "bmm": bmm,
    "dot": dot,
    "outer": outer,
    "maximum": maximum,
    "minimum": minimum,
    # elementwise
    "exp": exp,
    "log": log,
    "log1p": log1p,
    "sqrt": sqrt,
    "abs": abs,
    "sin": sin,
    "cos": cos,
    "tan": tan,
    "tanh": tanh,
    "sigmoid": sigmoid,
    "relu": relu,
    "sign": sign,
    "erf": erf,
    "clamp": clamp,
    "clip": clamp,
    "clamp_min": clamp_min,
    "clamp_max": clamp_max,
    "softmax": softmax,
    "log_softmax": log_softmax,
    # reductions
    "sum": sum,
    "mean": mean,
    "prod": prod,
    "max": max,
    "min": min,
    "amax": amax,
    "amin": amin,
    "argmax": argmax,
    "argmin": argmin,
    "norm": norm,
    "logsumexp": logsumexp,
    "var": var,
    "std": std,
    # shape
    "reshape": _method_sizes(reshape),
    "view": _method_sizes(view),
    "flatten": flatten,
    "squeeze": squeeze,
    "unsqueeze": unsqueeze,
    "permute": _method_sizes(permute),
    "transpose": transpose,
    "swapaxes": transpose,
    "t": t,
    "expand": _method_sizes(expand),
    "expand_as": expand_as,
    "view_as": view_as,
    "reshape_as": reshape_as,
    "broadcast_to": broadcast_to,
    # comparisons
    "lt": lt,
    "le": le,
    "gt": gt,
    "ge": ge,
    "eq": eq,
    "ne": ne,
    "where": _where_method,
    # conversions and bookkeeping
    "float": lambda x: to_dtype(x, np.float32),
    "double": lambda x: to_dtype(x, np.float64),
    "half": lambda x: to_dtype(x, np.float16),
    "long": lambda x: to_dtype(x, np.int64),
    "int": lambda x: to_dtype(x, np.int32),
    "short": lambda x: to_dtype(x, np.int16),
    "char": lambda x: to_dtype(x, np.int8),
    "byte": lambda x: to_dtype(x, np.uint8),
    "bool": lambda x: to_dtype(x, np.bool_),
    "to": _to,
    "type": _type,
    "type_as": lambda x, other: to_dtype(x, other.dtype),
    "clone": clone,
    "cpu": lambda x: x,
    "cuda": lambda x: x,
    "detach": _detach,
    "item": Tensor.item,
    "tolist": _tolist,
    "numel": Tensor.numel,
    "size": _size,
    "dim": lambda x: x.ndim,
    "ndimension": lambda x: x.ndim,
    "backward": Tensor.backward,
    "retain_grad": Tensor.retain_grad,
    "register_hook": Tensor.register_hook,
    "detach_": Tensor.detach_,
    "requires_grad_": Tensor.requires_grad_,
    "numpy": _numpy,
    **INPLACE,
}

# Functions reachable as torch.X / torch.nn.functional.X / F.X.
FUNCTIONS: dict[str, Callable[..., Any]] = {
    name: fn
    for name, fn in METHODS.items()
    if name not in INPLACE
    and name
    not in (
        "backward",
        "retain_grad",
        "requires_grad_",
        "item",
        "tolist",
        "numel",
        "size",
        "dim",
        "ndimension",
        "to",
        "type",
        "cpu",
        "cuda",
        "numpy",
        "contiguous",
        "float",
        "double",
        "half",
        "long",
        "int",
        "short",
        "char",
        "byte",
        "bool",
    )
}

FUNCTIONS.update(
    {
        "tensor": tensor,
        "as_tensor": as_tensor,
        "from_numpy": from_numpy,
        "Tensor": legacy_tensor,
        "FloatTensor": FloatTensor,
        "DoubleTensor": DoubleTensor,
        "LongTensor": LongTensor,
        "IntTensor": IntTensor,
        "BoolTensor": BoolTensor,
        "ByteTensor": ByteTensor,
        "Variable": Variable,
        "zeros": zeros,
        "ones": ones,
        "empty": empty,
        "full": full,
        "eye": eye,
        "arange": arange,
        "linspace": linspace,
        "logspace": logspace,
        "zeros_like": zeros_like,
        "ones_like": ones_like,
        "empty_like": empty_like,
        "full_like": full_like,
        "where": where,
        "cat": cat,
        "concat": cat,
        "concatenate": cat,
        "stack": stack,
        "leaky_relu": leaky_relu,
        "softplus": softplus,
        "gelu": gelu,
        "mse_loss": mse_loss,
        "binary_cross_entropy": binary_cross_entropy,
        "nll_loss": nll_loss,
        "cross_entropy": cross_entropy,
        "reshape": reshape,
        "permute": permute,
        "expand": expand,
        "numel": Tensor.numel,
        "ger": ger,
        "sub": sub,
        "add": add,
    }
)

# Elementwise functions: one line a name gives torch.X, Tensor.X, Tensor.X_ (in place) and the
# aliases PyTorch has for it (torch.arcsinh is torch.asinh).
ELEMENTWISE: dict[str, tuple[Callable[..., Tensor], tuple[str, ...]]] = {
    "asin": (unary(E.asin), ("arcsin",)),
    "acos": (unary(E.acos), ("arccos",)),
    "atan": (unary(E.atan), ("arctan",)),
    "atan2": (EW.atan2, ("arctan2",)),
    "sinh": (unary(E.sinh), ()),
    "cosh": (unary(E.cosh), ()),
    "asinh": (unary(E.asinh), ("arcsinh",)),
    "acosh": (unary(E.acosh), ("arccosh",)),
    "atanh": (unary(E.atanh), ("arctanh",)),
    "exp2": (unary(E.exp2), ()),
    "expm1": (unary(E.expm1), ()),
    "log2": (unary(E.log2), ()),
    "log10": (unary(E.log10), ()),
    "rsqrt": (unary(E.rsqrt), ()),
    "reciprocal": (unary(E.reciprocal), ()),
    "square": (lambda input: pow(input, 2), ()),  # PyTorch's square is pow(x, 2): PowBackward0
    "floor": (EW.floor, ()),
    "ceil": (EW.ceil, ()),
    "round": (EW.round, ()),
    "trunc": (EW.trunc, ("fix",)),
    "frac": (EW.frac, ()),
    "sgn": (EW.sgn, ()),
    "heaviside": (EW.heaviside, ()),
    "nan_to_num": (EW.nan_to_num, ()),
    "floor_divide": (EW.floor_divide, ()),
    "remainder": (EW.remainder, ()),
    "fmod": (EW.fmod, ()),
    "div": (EW.div, ("divide",)),
}
for _name, (_fn, _aliases) in ELEMENTWISE.items():
    for _n in (_name, *_aliases):
        FUNCTIONS[_n] = METHODS[_n] = _fn
        METHODS[_n + "_"] = INPLACE[_n + "_"] = inplace_method(_fn)

# Random numbers: PyTorch's generator (`sampling`).
FUNCTIONS.update(sampling.FUNCTIONS)
METHODS.update(sampling.METHODS)

# Compositions of the operations above (linear, silu, cumsum, gather, sort, ...).
FUNCTIONS.update({**composite.BOTH, **composite.FUNCTIONS_ONLY})
METHODS.update({**composite.BOTH, **composite.METHODS_ONLY})
# Moving, picking and repeating elements (flip, roll, take, diff, ...); running and order
# statistics (cumprod, cummax, median, mode, quantile, std_mean, trapezoid, ...).
# The tensor basics (hstack, tensor_split, movedim, argsort, nonzero, unique, bit and logic
# operations, broadcast_shapes, ...).
for _family in (rearrange, statistics, basics):
    FUNCTIONS.update({**_family.BOTH, **_family.FUNCTIONS_ONLY})
    METHODS.update({**_family.BOTH, **_family.METHODS_ONLY})
MODULES: dict[str, Callable[..., Any]] = {**_NN_MODULES, **composite.MODULES, **layers.MODULES}

# nn.functional's activations, normalisation, convolution, pooling, padding and losses
# (`nnfunctional`, `nnlosses`): those torch also has as torch.X, then F's own.
_NN_BOTH = {
    "selu": NF.selu,
    "celu": NF.celu,
    "threshold": NF.threshold,
    "hardshrink": NF.hardshrink,
    "cosine_similarity": NF.cosine_similarity,
    "pairwise_distance": NF.pairwise_distance,
    "layer_norm": NF.layer_norm,
    "group_norm": NF.group_norm,
    "conv1d": NF.conv1d,
    "conv2d": NF.conv2d,
    "max_pool1d": NF.max_pool1d,
    "max_pool2d": NF.max_pool2d,
    "avg_pool1d": NF.avg_pool1d,
    "embedding": NF.embedding,
    "kl_div": NL.kl_div,
    "margin_ranking_loss": NL.margin_ranking_loss,
    "triplet_margin_loss": NL.triplet_margin_loss,
    "hinge_embedding_loss": NL.hinge_embedding_loss,
    "cosine_embedding_loss": NL.cosine_embedding_loss,
}
_NN_ONLY = {
    "elu": NF.elu,
    "hardtanh": NF.hardtanh,
    "relu6": NF.relu6,
    "softsign": NF.softsign,
    "mish": NF.mish,
    "hardswish": NF.hardswish,
    "hardsigmoid": NF.hardsigmoid,
    "softmin": NF.softmin,
    "softshrink": NF.softshrink,
    "tanhshrink": NF.tanhshrink,
    "glu": NF.glu,
    "normalize": NF.normalize,
    "pad": NF.pad,
    "avg_pool2d": NF.avg_pool2d,
    "unfold": NF.unfold,
    "fold": NF.fold,
    "smooth_l1_loss": NL.smooth_l1_loss,
    "huber_loss": NL.huber_loss,
    "soft_margin_loss": NL.soft_margin_loss,
}
FUNCTIONS.update(_NN_BOTH)
METHODS.update({"hardshrink": NF.hardshrink})

# Predicates and layout (isclose, allclose, equal, is_tensor, stride, contiguous...).
FUNCTIONS.update(predicates.FUNCTIONS)
METHODS.update(predicates.METHODS)

# The scatter family (scatter, scatter_add, index_add, index_fill, masked_fill, in place too).
FUNCTIONS.update(_scatter.BOTH)
METHODS.update({**_scatter.BOTH, **_scatter.IN_PLACE})
INPLACE.update(_scatter.IN_PLACE)
# Linear algebra (einsum, tensordot, addmm, det, cdist, ...); torch.linalg is `LINALG`.
FUNCTIONS.update({**LA.BOTH, **LA.FUNCTIONS_ONLY})
METHODS.update(LA.BOTH)
for _name, _fn in LA.FALLBACKS.items():
    FUNCTIONS.setdefault(_name, _fn)
    METHODS.setdefault(_name, _fn)
LINALG: dict[str, Callable[..., Any]] = dict(LA.LINALG)

# torch.nn.functional: torch's functions, where F's own differ (softmax's implicit dim).
NN_FUNCTIONAL: dict[str, Callable[..., Any]] = {
    **FUNCTIONS,
    **_NN_ONLY,
    "dropout": sampling.dropout,
    "softmax": f_softmax,
    "log_softmax": f_log_softmax,
}

# Operators a program can apply to tensors besides the arithmetic ones of `ops.arithmetic`.
OPERATORS: dict[str, Callable[..., Any]] = {
    "__getitem__": getitem,
    "__lt__": lt,
    "__le__": le,
    "__gt__": gt,
    "__ge__": ge,
    "__floordiv__": EW.floor_divide,
    "__rfloordiv__": lambda a, b: EW.floor_divide(b, a),
    "__mod__": EW.remainder,
    "__rmod__": lambda a, b: EW.remainder(b, a),
}


def _install() -> None:
    for name, fn in OPERATORS.items():
        setattr(Tensor, name, fn)
    for name, fn in METHODS.items():
        if not hasattr(Tensor, name) or name in ("size",):
            setattr(Tensor, name, fn)
    # `x += y` and `x[i] = v` change the tensor in place, as for torch tensors.
    for name, method in (("__iadd__", "add_"), ("__isub__", "sub_"), ("__imul__", "mul_")):
        setattr(Tensor, name, METHODS[method])
    Tensor.__itruediv__ = METHODS["div_"]  # type: ignore[attr-defined]
    Tensor.__setitem__ = I.setitem  # type: ignore[attr-defined]
    Tensor.T = property(T)  # type: ignore[attr-defined]
    Tensor.mT = property(mT)  # type: ignore[attr-defined]
    Tensor.__repr__ = tensor_repr  # type: ignore[method-assign]


_install()
