"""Every user-facing name of the PyTorch surface, declared once (`declare`): this module's
own table (`DECLARED`: arithmetic, elementwise functions, reductions, shapes, conversions,
constructors, activations and losses, the operators) and the families' (`NAMES`), each name
with where a program reaches it, its function and the op records it is built on.

From them: the Tensor methods (`METHODS`), the functions reachable as torch.X / F.X
(`FUNCTIONS`, `NN_FUNCTIONAL`), the `torch.nn` modules (`MODULES`), torch.linalg (`LINALG`);
the interpreter's namespaces read these, the catalog (`gradcli ops`) and the README's
operation table read `NAMES`. Importing this module installs the methods, the comparison and
indexing operators, `.T` / `.mT` and the PyTorch repr on `Tensor`.

Start-up imports this module's own table's functions and two families (`sampling`, `nn`);
every other family is imported when a program first reaches one of its names: the tables are
`LazyTable`s that look a missing name up in `family_index.INDEX`, import its family and
remake themselves (the same contents and order as if every family had been imported), and
`Tensor` finds a method of a family not yet imported the same way. Iterating over a table
imports every family.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FunctionType
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core import dtypes as D
from ..core import hooks
from ..core import primitives as P
from ..core import tensor as core_tensor
from ..core.dtypes import BF16, LEGACY_TYPES, check_dtype
from ..core.op import laid_out
from ..core.tensor import (
    META,
    VMAP_STORAGE,
    Tensor,
    _GradMode,
    batched,
    grad_enabled,
    no_meta_data,
    on_meta,
    python_value,
    typename,
)
from ..ops import arithmetic as A
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
    tensor_arg,
    unary,
)
from . import elementwise as EW
from . import indexing as I
from . import kernels as _K
from . import nn as _nn  # noqa: F401 - a family imported at start-up (FAMILIES)
from . import nnfunctional as NF
from . import nnlosses as NL
from . import sampling  # noqa: F401 - a family imported at start-up (FAMILIES)
from .args import check_dim, dtype_lookalike, sizes_required, to_bind
from .constructors import (
    LEGACY_TYPES_BY_NAME,
    LegacyTensorType,
    Variable,
    arange,
    as_tensor,
    empty,
    empty_like,
    empty_permuted,
    empty_strided,
    eye,
    from_numpy,
    frombuffer,
    full,
    full_like,
    legacy_tensor,
    linspace,
    logspace,
    new_empty_strided,
    ones,
    ones_like,
    range_,
    tensor,
    zeros,
    zeros_like,
)
from .declare import WHERE, Name, declare
from .functional import (  # noqa: A004 - torch.sum, torch.max, torch.min
    INPLACE,
    H,
    T,
    _at_most_two,
    add,
    alpha_operand,
    amax,
    amin,
    angle,
    argmax,
    argmin,
    bmm,
    broadcast_to,
    cat,
    clamp,
    clamp_max,
    clamp_min,
    clone,
    conj,
    conj_physical,
    dot,
    eq,
    expand,
    expand_as,
    f_log_softmax,
    f_softmax,
    flatten,
    ge,
    gelu,
    gt,
    imag,
    le,
    leaky_relu,
    log_softmax,
    logsumexp,
    lt,
    max,
    maximum,
    mean,
    mH,
    min,
    minimum,
    mm,
    mT,
    mv,
    ne,
    norm,
    old_signature,
    permute,
    polar,
    prod,
    real,
    relu,
    reshape,
    reshape_as,
    resolve_conj,
    resolve_neg,
    softmax,
    softplus,
    squeeze,
    stack,
    std,
    sub,
    sum,
    swapaxes,
    t,
    to_dtype,
    transpose,
    unsqueeze,
    var,
    view,
    view_as,
    view_as_complex,
    view_as_real,
    where,
)
from .functional import _method_ as inplace_method
from .functional import complex as complex_
from .functional import fill as torch_fill
from .indexing import getitem
from .losses import binary_cross_entropy, cross_entropy, mse_loss, nll_loss
from .printing import Size, tensor_repr


def torch_norm(
    input: Any, p: Any = "fro", dim: Any = None, keepdim: bool = False, dtype: Any = None
) -> Tensor:
    """`torch.norm` / `Tensor.norm`: F.norm, except that PyTorch hands an order given by name
    other than a Frobenius norm over at most two dims ('nuc', 'fro' over more, a wrong name) to
    linalg.matrix_norm, over every dim by default."""
    if isinstance(p, str) and not (p == "fro" and (dim is None or _at_most_two(dim))):
        from .linalg import matrix_norm

        x = tensor_arg(input, "input")
        if dtype is not None:
            x = to_dtype(x, check_dtype(dtype, fn="norm"))
        dims = list(range(x.ndim)) if dim is None else dim
        return matrix_norm(x, p, dims, bool(keepdim))
    return norm(input, p, dim, keepdim, dtype)


def fused_add(input: Any, other: Any, alpha: Any = 1) -> Tensor:
    """`torch.add` / `Tensor.add` / `add_`: the graph of `functional.add`, with the values of
    ATen's add kernel where `alpha` is given (see `_fused`)."""
    other, alpha = old_signature(other, alpha)
    A.number_or_tensor(other, "add", "other", 2)
    _check_alpha(input, other, alpha)
    if alpha != 1:
        other = alpha_operand(input, other)
    if type(other) is float and alpha == 1:
        with D.program_float():  # (PyTorch's wrapped number: `core.forward`)
            return add(input, other, alpha)
    out = add(input, other, alpha)
    return out if alpha == 1 else _fused(out, input, other, alpha)


def fused_sub(input: Any, other: Any, alpha: Any = 1) -> Tensor:
    other, alpha = old_signature(other, alpha)
    A.number_or_tensor(other, "sub", "other", 2)
    _check_alpha(input, other, alpha)
    if alpha != 1:
        other = alpha_operand(input, other)
    if type(other) is float and alpha == 1:
        with D.program_float():
            return sub(input, other, alpha)
    out = sub(input, other, alpha)
    return out if alpha == 1 else _fused(out, input, other, -alpha)


def _check_alpha(input: Any, other: Any, alpha: Any) -> None:
    """ATen's checks of add/sub's alpha against the result's dtype: a bool alpha only for a
    bool result, a floating alpha not for an integral one (PyTorch's RuntimeErrors)."""
    if isinstance(alpha, Tensor) and alpha.ndim == 0:
        kind = alpha.dtype.kind
    elif isinstance(alpha, (bool, np.bool_)):
        kind = "b"
    elif isinstance(alpha, (float, np.floating)):
        kind = "f"
    else:
        return
    if kind not in "bf" or not isinstance(input, Tensor):
        return
    from .basics import result_type

    out = np.dtype(result_type(input, other)).kind
    if kind == "b" and out != "b":
        raise (
            GradcliError("Boolean alpha only supported for Boolean results.")
            .mirror("RuntimeError")
            .pytorch()
        )
    if kind == "f" and out in "biu":
        raise (
            GradcliError(
                "For integral input tensors, argument alpha must not be a floating point number."
            )
            .mirror("RuntimeError")
            .pytorch()
        )


class _Unset:
    """The default of alpha where a program's own `alpha=` must be told from none."""

    def __eq__(self, other: object) -> bool:
        return other == 1

    def __repr__(self) -> str:  # (as a signature shows the default)
        return "1"

    __hash__ = object.__hash__


_NO_ALPHA = _Unset()


def _number_like(v: Any) -> bool:
    """A value PyTorch's parser takes for a Number: a Python or NumPy number, a 0-d tensor."""
    if isinstance(v, Tensor):
        return v.ndim == 0
    return isinstance(v, (int, float, np.number, np.bool_))


def _legacy_form(core: Callable[..., Tensor], name: str, form: str) -> Callable[..., Tensor]:
    """`torch.add` (form "torch"), `x.add` ("method") and `x.add_` ("inplace") with PyTorch's
    deprecated overload `add(Number alpha, Tensor other)` (`p.data.add_(-lr, grad)` of
    hand-written optimizers; torch's `add(input, Number alpha, other)`): taken with the
    argument parser's warning (once a process, for all the deprecated overloads), as
    `core(input, other, alpha=alpha)`; a positional alpha after a tensor is PyTorch's
    TypeError (`torch.add(x, y, 2)`), as is `alpha=` beside the deprecated form."""
    shown = name + ("_" if form == "inplace" else "")

    def call(input: Any, other: Any, *legacy: Any, alpha: Any = _NO_ALPHA) -> Tensor:
        if not legacy:
            return core(input, other, 1 if alpha is _NO_ALPHA else alpha)
        given = 2 + len(legacy) if form == "torch" else 1 + len(legacy)
        takes = "2 positional arguments" if form == "torch" else "1 positional argument"
        if alpha is not _NO_ALPHA and form != "torch":
            raise GradcliError(
                f"{shown}() received an invalid combination of arguments - got unrecognized "
                "keyword arguments: alpha",
                hint=f"write x.{shown}(other, alpha=...)",
            ).mirror("TypeError")
        if len(legacy) > 1 or alpha is not _NO_ALPHA or not _number_like(other):
            raise GradcliError(
                f"{shown}() takes {takes} but {given} were given",
                hint=f"alpha is a keyword: {shown}(..., other, alpha=...)",
            ).mirror("TypeError")
        from .overloads import _ONCE

        if form == "torch":
            old = f"{name}(Tensor input, Number alpha, Tensor other, *, Tensor out = None)"
            new = f"{name}(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)"
        else:
            old = f"{shown}(Number alpha, Tensor other)"
            new = f"{shown}(Tensor other, *, Number alpha = 1)"
        hooks.warn(
            f"This overload of {shown} is deprecated:\n\t{old}\n"
            f"Consider using one of the following signatures instead:\n\t{new}"
            " (Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/"
            "python_arg_parser.cpp:1841.)",
            once=_ONCE,
        )
        return core(input, legacy[0], other)

    call.__name__ = core.__name__
    call.__qualname__ = core.__qualname__
    call.__doc__ = core.__doc__
    return call


def _subtract_form(form: str) -> Callable[..., Tensor]:
    """`torch.subtract` / `x.subtract` / `x.subtract_`: sub's name without its deprecated
    overload; a positional alpha only as PyTorch's `(Number other, Number alpha)`, any other
    third argument the parser's TypeError listing the overloads."""

    def call(input: Any, other: Any, *rest: Any, alpha: Any = _NO_ALPHA) -> Tensor:
        if not rest:
            return fused_sub(input, other, 1 if alpha is _NO_ALPHA else alpha)
        if len(rest) == 1 and alpha is _NO_ALPHA and _number_like(other):
            if _number_like(rest[0]):
                return fused_sub(input, other, rest[0])
        from . import callerrors as C

        args = [input, other, *rest]
        kwargs = {} if alpha is _NO_ALPHA else {"alpha": alpha}
        if form == "torch":
            found = C._error_of("torch.subtract", args, kwargs, None)
            words = found[1] if found else None
        else:
            words = C._method_overload_error("Tensor.subtract", "subtract", args[1:], kwargs)
            if words and form == "inplace":
                words = words.replace("subtract()", "subtract_()", 1)
        raise GradcliError(
            words or "subtract() received an invalid combination of arguments",
            hint="alpha is a keyword: subtract(other, alpha=...)",
        ).mirror("TypeError")

    call.__name__ = fused_sub.__name__
    call.__qualname__ = fused_sub.__qualname__
    return call


torch_subtract = _subtract_form("torch")
method_subtract = _subtract_form("method")
inplace_subtract = _subtract_form("inplace")


torch_add = _legacy_form(fused_add, "add", "torch")
method_add = _legacy_form(fused_add, "add", "method")
inplace_add = _legacy_form(fused_add, "add", "inplace")
torch_sub = _legacy_form(fused_sub, "sub", "torch")
method_sub = _legacy_form(fused_sub, "sub", "method")
inplace_sub = _legacy_form(fused_sub, "sub", "inplace")


def rsub(input: Any, other: Any, alpha: Any = 1) -> Tensor:
    """`torch.rsub(input, other, alpha=1)`: other - alpha * input. With alpha, recorded as
    the product then RsubBackward0/1 (as `sub`'s alpha); its values ATen's sub kernel's, one
    fused multiply-add (one rounding) where both operands are of the result's float dtype."""
    A.number_or_tensor(other, "rsub", "other", 2)
    if not isinstance(alpha, (int, float, complex)):  # (its overloads' words for the keyword)
        kind = "Tensor" if isinstance(other, Tensor) else "Number"
        raise GradcliError(
            f"rsub() received an invalid combination of arguments - got (Tensor, {kind}, "
            f"alpha={typename(alpha)}), but expected one of:\n"
            " * (Tensor input, Tensor other, *, Number alpha = 1)\n"
            " * (Tensor input, Number other, Number alpha = 1)\n"
            "      didn't match because some of the keywords were incorrect: alpha\n"
        ).mirror("TypeError")
    if alpha == 1:
        return A.rsub_t(input, other)
    A.check_bool_sub(other, input)
    from .functional import _times_alpha

    input = alpha_operand(other, input)  # noqa: A001 - (scaled in the result's dtype)
    out = A.rsub_t(_times_alpha(input, alpha), other)
    if (
        isinstance(input, Tensor)
        and input.dtype == out.dtype
        and out.dtype in (np.float32, np.float64)
        and isinstance(alpha, (int, float))
        and not isinstance(alpha, bool)
        and out.shape == input.shape
    ):
        if isinstance(other, Tensor):
            base = other.data if other.dtype == out.dtype else None
        else:
            base = np.full(out.shape, other, dtype=out.dtype)
        if base is not None:
            values = _K.add(np.broadcast_to(base, out.shape), input.data, -alpha)
            out.data = np.asarray(values, dtype=out.dtype).reshape(out.shape)
    return out


def mul(input: Any, other: Any) -> Tensor:
    """`torch.mul` / `Tensor.mul`: `other` a tensor or a number (the operator `*` is mul_t's
    own, in Python's words)."""
    other = A.number_or_tensor(other, "mul", "other", 2)
    if type(other) is float:
        with D.program_float():
            return mul_t(input, other)
    return mul_t(input, other)


def true_divide(input: Any, other: Any) -> Tensor:  # noqa: A002 - PyTorch's keyword
    """`torch.true_divide` / `Tensor.true_divide`: `/`."""
    if type(other) is float:
        with D.program_float():
            return div_t(input, other)
    return div_t(input, other)


def _fused(out: Tensor, x: Any, y: Any, alpha: Any) -> Tensor:
    """The values of `x + alpha * y` as ATen's add kernel computes them: one fused
    multiply-add, one rounding (`kernels.add`), where NumPy's product then sum rounds twice.
    The graph is the recorded product and sum (their gradients are the same).

    Only where `y` runs along the result's last dimension (an update `p.add_(g, alpha=-lr)`,
    two tensors of one shape, a bias row added to a matrix): measured against PyTorch 2.13, a
    `y` repeated along the last dimension (a column, a 0-d tensor) takes other kernel paths
    whose rounding depends on the row length, and keeps the product then sum."""
    if (
        isinstance(x, Tensor)
        and isinstance(y, Tensor)
        and isinstance(alpha, (int, float))
        and not isinstance(alpha, bool)
        and x.dtype == y.dtype == out.dtype
        and out.dtype.kind == "f"
        and (out.ndim == 0 or (y.shape[-1] if y.ndim else 1) == out.shape[-1])
    ):
        out.data = _K.add(x.data, y.data, alpha).reshape(out.shape)
    elif (
        isinstance(x, Tensor)
        and isinstance(y, Tensor)
        and type(alpha) in (int, float, complex)
        and out.dtype.kind == "c"
    ):
        # complex: alpha a complex number (a real one with +0 imaginary part) times y, then
        # the sum, as ATen's kernel (the recorded product then sum by 1 + 0j would turn an
        # inf + nan j into nan + nan j, and change signs of zero)
        a = alpha if type(alpha) is complex else complex(alpha, 0.0)
        exact = P.alpha_sum(a)(x.data, y.data)
        if exact.shape == out.data.shape and exact.dtype == out.data.dtype:
            out.data = exact
    return laid_out(out, x, y)


def _method_sizes(fn: Callable[..., Tensor], keyword: str) -> Callable[..., Tensor]:
    """x.reshape(2, 3), x.reshape((2, 3)), and PyTorch's keyword: x.reshape(shape=(2, 3))."""

    def m(self: Tensor, *sizes: Any, **kwargs: Any) -> Tensor:
        if kwargs:
            sizes = _sizes_keyword(fn.__name__, keyword, sizes, kwargs)
        return fn(self, *sizes)

    return m


def _resize_method(self: Tensor, *sizes: Any) -> Tensor:
    """`x.resize(2, 3)`: PyTorch's deprecated non-inplace resize (autograd's `Resize`): the
    same elements in a new shape, sharing the storage when the tensor is contiguous (a copy
    otherwise), ResizeBackward; the sizes are taken as they are written (a tuple is not
    unpacked: PyTorch then refuses it, as here)."""
    from ..core import hooks
    from ..ops.arithmetic import named
    from .predicates import contiguous

    hooks.warn("non-inplace resize is deprecated")
    if len(sizes) > 64:
        raise GradcliError(
            f"resize() to {len(sizes)} dimensions: a tensor has at most 64",
            hint="use x.reshape(...) with at most 64 sizes",
        )
    shown = "x".join(str(d) for d in self.shape)
    n = self.numel()
    if all(isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in sizes):
        total = 1
        for d in sizes:
            total *= int(d)
        if total == n and all(int(d) >= 0 for d in sizes):
            x = contiguous(self)
            return named(reshape(x, *[int(d) for d in sizes]), "ResizeBackward")
        asked, total_text = "x".join(str(int(d)) for d in sizes), str(total)
    elif len(sizes) == 1 and isinstance(sizes[0], (tuple, list, Size)):
        # (PyTorch multiplies 1 by the tuple: the "number" of elements is the tuple)
        asked = total_text = str(tuple(sizes[0]))
    else:
        raise GradcliError(
            "resize() takes the sizes as integers: x.resize(2, 3)",
            hint="use x.reshape(2, 3) (resize is deprecated)",
        ).mirror("TypeError")
    raise GradcliError(
        f"requested resize to {asked} ({total_text} elements in total), but the given tensor "
        f"has a size of {shown} ({n} elements). autograd's resize can only change the shape of "
        "a given tensor, while preserving the number of elements. ",
        hint="the new sizes must multiply to the number of elements; or use x.reshape(...)",
    )


def _sizes_keyword(fn: str, keyword: str, sizes: tuple, kwargs: dict) -> tuple:
    """The sizes of a call `fn(*sizes, **kwargs)` whose one keyword may be `keyword`."""
    for k in kwargs:
        if k != keyword:
            raise GradcliError(f"{fn}() got an unexpected keyword argument '{k}'").mirror(
                "TypeError"
            )
    if sizes:
        raise GradcliError(f"{fn}() got multiple values for argument '{keyword}'").mirror(
            "TypeError"
        )
    return (kwargs[keyword],)


def torch_reshape(input: Any, *shape: Any, **kwargs: Any) -> Tensor:
    """torch.reshape(x, (2, 3)), torch.reshape(x, shape=(2, 3))."""
    if kwargs:
        shape = _sizes_keyword("reshape", "shape", shape, kwargs)
    return reshape(input, *shape)


def _permute_method(self: Tensor, *dims: Any, **kwargs: Any) -> Tensor:
    # x.permute(1, 0), x.permute((1, 0)), x.permute(dims=(1, 0))
    return permute(self, *dims, **kwargs)


def _view_method(self: Tensor, *sizes: Any, dtype: Any = None, size: Any = None) -> Tensor:
    # x.view(2, 3), x.view((2, 3)), x.view(size=(2, 3)), x.view(torch.int32),
    # x.view(dtype=torch.int32)
    if not sizes and size is None and dtype is None:  # (x.view(): the parser's TypeError)
        raise GradcliError(
            "view() received an invalid combination of arguments - got (), but expected one "
            "of:\n * (torch.dtype dtype)\n * (tuple of ints size)\n"
        ).mirror("TypeError")
    if size is not None:
        sizes = _sizes_keyword("view", "size", sizes, {"size": size})
    return view(self, *sizes, dtype=dtype)


def _size(self: Tensor, dim: Any = None) -> Any:
    if dim is None:
        return Size(self.shape)
    return self.shape[check_dim(dim, self.ndim)]


def _tolist(self: Tensor) -> Any:
    if _GradMode.vmapped and batched(self):
        raise GradcliError(VMAP_STORAGE)
    return python_value("list", self.data.tolist())


def _item(self: Tensor) -> Any:
    return python_value("number", self.item())


def _to(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """`x.to(dtype)`, `x.to("cpu")`, `x.to(device, dtype)`, `x.to(other)`, with
    non_blocking=, copy= and memory_format=; any other call is PyTorch's TypeError."""
    from .args import memory_format_arg, to_device_check, to_dtype_of

    bound = to_bind(args, kwargs)
    meta = to_device_check(bound.get("device"))
    fmt = memory_format_arg(bound.get("memory_format"), "to", self.shape)
    dtype = to_dtype_of(bound)
    if bound.get("device") is not None and not meta:
        no_meta_data(self)  # (a meta tensor onto the CPU)
    if meta and not on_meta(self):
        # (a new tensor on the meta device: PyTorch's ToCopyBackward0 when recorded)
        self = _copied(self)  # noqa: PLW0642
        META.add(self)
    out = self if dtype is None else to_dtype(self, dtype)
    if out is self and (bound.get("copy") or (fmt != "preserve" and _suggested(self) != fmt)):
        out = _copied(self)  # a new tensor of the same values (PyTorch's ToCopyBackward0)
    if fmt != "preserve" and out is not self:
        from ..core.layout import in_format

        out.data = in_format(out.data, fmt)  # (as `empty_like(x, memory_format=...)`)
    return out


def _suggested(x: Tensor) -> str:
    """PyTorch's `x.suggest_memory_format()` (`core.layout.suggested_format`)."""
    from ..core.layout import suggested_format
    from .predicates import stride

    return suggested_format(x.shape, stride(x))


def _copied(x: Tensor) -> Tensor:
    from ..core.op import apply
    from ..ops import shape as S

    if x.dtype.kind in "fc":
        return apply(S.astype, x, dtype=x.dtype, label="ToCopyBackward0")
    return Tensor(x.data.copy())


def _adjoint(input: Any) -> Tensor:  # noqa: A002
    """`x.adjoint()`: the conjugate transpose of the last two dims (of a real tensor, x.mT)."""
    x = _tensor_input(input, "adjoint")
    if x.ndim < 2:
        raise GradcliError(
            "tensor.adjoint() is only supported on matrices or batches of matrices. "
            f"Got {x.ndim}-D tensor."
        )
    return mH(x)


def _isreal(input: Any) -> Tensor:  # noqa: A002
    """`torch.isreal(x)`: True where the imaginary part is 0 (everywhere for a real tensor)."""
    x = _tensor_input(input, "isreal")
    if x.dtype.kind == "c":
        return Tensor(np.asarray(x.data.imag == 0))
    return Tensor(np.ones(x.shape, dtype=bool))


def _tensor_input(v: Any, fn: str) -> Tensor:
    if isinstance(v, Tensor):
        return v
    raise GradcliError(
        f"{fn}(): argument 'input' (position 1) must be Tensor, not {typename(v)}"
    ).mirror("TypeError")


def _new(self: Tensor, *args: Any) -> Tensor:
    """`x.new(...)`, the legacy constructor in x's dtype: `x.new(2, 3)` or `x.new(size)` (zeros
    where PyTorch leaves memory uninitialised), `x.new([1, 2])` (data), `x.new()` (empty),
    `x.new(t)` (t itself when it has x's dtype, as a new tensor object)."""
    from .constructors import _typed_legacy

    if len(args) == 1 and type(args[0]).__name__ == "Size":
        args = tuple(args[0])  # a torch.Size is sizes, not data
    return _typed_legacy(self.dtype, "new")(*args)


def _type(self: Tensor, dtype: Any = None, non_blocking: bool = False) -> Any:
    """`x.type()`: its legacy type name ('torch.FloatTensor'); `x.type(torch.float64)` or
    `x.type('torch.DoubleTensor')`: the tensor in that type."""
    if dtype is None:
        return LEGACY_TYPES[self.dtype]
    if isinstance(dtype, LegacyTensorType):  # x.type(torch.DoubleTensor)
        return to_dtype(self, dtype.dtype)
    if isinstance(dtype, str):
        by_name = {name: dt for dt, name in LEGACY_TYPES.items()}
        if dtype not in by_name:
            looks = dtype_lookalike(dtype)
            raise GradcliError(
                f"invalid type: {dtype!r}",
                found=looks,
                expected="a torch dtype (torch.float64) or a tensor type name "
                "('torch.DoubleTensor')",
            ).mirror("ValueError")
        dtype = by_name[dtype]
    elif _program_class(dtype):
        # a class the program names: torch.Tensor (`x.type(type(y.data))`, old code's way to
        # the default tensor type) converts to the default dtype, as PyTorch's legacy
        # torch.FloatTensor; any other class is refused in PyTorch's words
        if getattr(dtype, "name", None) != "Tensor" or Tensor not in dtype.types:
            raise GradcliError(f"invalid type: {getattr(dtype, 'name', '?')!r}").mirror(
                "ValueError"
            )
        from ..core.tensor import Settings

        dtype = Settings.default_dtype
    elif not isinstance(dtype, np.dtype) and not (
        isinstance(dtype, type) and issubclass(dtype, np.generic)
    ):
        raise GradcliError("dtype must be a type, str, or dtype object").mirror("TypeError")
    return to_dtype(self, dtype)


def _program_class(v: Any) -> bool:
    """Whether `v` is a class value of the program's (`torch.Tensor`, `int`, `nn.Module`,
    what `type(v)` gives): the interpreter's class values say 'type' as their type name."""
    name = getattr(v, "program_typename", None)
    return callable(name) and name() == "type"


def _where_method(self: Tensor, condition: Any, other: Any) -> Tensor:
    """`x.where(condition, y)`: `torch.where(condition, x, y)`."""
    return where(condition, self, other)


def _numpy(self: Tensor, force: bool = False) -> Tensor:
    # PyTorch refuses only while grad mode is on: under no_grad the array is given.
    if self.requires_grad and grad_enabled() and not force:
        raise GradcliError(
            "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.",
            hint="a NumPy array is outside the graph: no gradient flows through it",
        )
    if self.dtype == BF16:  # NumPy has no bfloat16
        raise GradcliError("Got unsupported ScalarType BFloat16").mirror("TypeError")
    core_tensor.check_unresolved(self)
    return self


def _detach(input: Tensor) -> Tensor:
    # The same storage and version counter (changes in place through it count), no graph.
    return input.detach()


def _conversion(dtype: Any) -> Callable[[Tensor], Tensor]:
    return lambda x: to_dtype(x, dtype)


def _matmul(input: Any, other: Any) -> Tensor:  # noqa: A002
    """torch.matmul / Tensor.matmul: `ops.arithmetic.matmul`; of a sparse matrix and a dense
    one, `ops.sparsemm`'s product."""
    from ..core.sparse import SparseCOO, SparseCSR

    if isinstance(input, SparseCSR):
        from ..ops.sparsemm import sparse_mm

        return sparse_mm(input.coo, other, "MmBackward0", "matmul", fused=False)
    if isinstance(input, SparseCOO):
        from ..ops.sparsemm import sparse_mm

        return sparse_mm(input, other, "MmBackward0", "matmul")
    return matmul(input, other)


_matmul.__name__ = _matmul.__qualname__ = "matmul"

# The records of the operators `ops.arithmetic` installs on Tensor.
_ARITHMETIC = {
    "__add__": "add",
    "__radd__": "add",
    "__sub__": "sub",
    "__rsub__": "sub rsub_scalar",
    "__mul__": "mul",
    "__rmul__": "mul",
    "__truediv__": "div",
    "__rtruediv__": "div reciprocal mul",
    "__pow__": "pow pow_scalar rpow_scalar",
    "__rpow__": "pow pow_scalar rpow_scalar",
    "__matmul__": "matmul",
    "__rmatmul__": "matmul",
    "__neg__": "neg",
    "__pos__": "",
    "__abs__": "abs",
}

_S = "composition of "  # a name built on records that are not its own operation (see declare)

# The names of the tensor arithmetic, elementwise functions, reductions, shapes, comparisons,
# conversions and constructors; the families' tables follow (`NAMES`, at the end).
DECLARED = declare(
    # arithmetic
    ("add", "torch", torch_add, "add"),
    ("add", "Tensor", method_add, "add"),
    ("sub", "torch", torch_sub, "sub"),
    ("sub", "Tensor", method_sub, "sub"),
    ("subtract", "torch", torch_subtract, "sub"),
    ("subtract", "Tensor", method_subtract, "sub"),
    ("mul multiply", "torch Tensor", mul, "mul"),
    ("true_divide", "torch Tensor", true_divide, "div"),
    ("rsub", "torch", rsub, "rsub rsub_scalar"),
    ("div divide", "torch Tensor Tensor_", EW.div, "div div_mode"),
    ("pow", "torch Tensor", pow, "pow pow_scalar rpow_scalar"),
    ("neg negative", "torch Tensor", neg, "neg"),
    ("matmul", "torch Tensor", _matmul, "matmul"),
    ("mm", "torch Tensor", mm, "matmul"),
    ("mv", "torch Tensor", mv, "matmul"),
    ("bmm", "torch Tensor", bmm, "matmul"),
    ("dot", "torch Tensor", dot, "matmul"),
    ("maximum", "torch Tensor", maximum, "maximum"),
    ("minimum", "torch Tensor", minimum, "minimum"),
    # elementwise
    ("exp", "torch Tensor", exp, "exp"),
    ("log", "torch Tensor", log, "log"),
    ("log1p", "torch Tensor special", log1p, "log1p"),
    ("sqrt", "torch Tensor", sqrt, "sqrt"),
    ("abs absolute", "torch Tensor", abs, "abs"),
    ("sin", "torch Tensor", sin, "sin"),
    ("cos", "torch Tensor", cos, "cos"),
    ("tan", "torch Tensor", tan, "tan"),
    ("tanh", "torch Tensor", tanh, "tanh"),
    ("sigmoid", "torch Tensor", sigmoid, "sigmoid"),
    ("relu", "torch Tensor", relu, "relu"),
    ("sign", "torch Tensor", sign, "sign"),
    ("erf", "torch Tensor special", erf, "erf"),
    ("clamp clip", "torch Tensor", clamp, "clamp where"),
    ("clamp_min", "torch Tensor", clamp_min, "clamp where"),
    ("clamp_max", "torch Tensor", clamp_max, "clamp where"),
    ("softmax", "torch Tensor special", softmax, "softmax"),
    ("log_softmax", "torch Tensor special", log_softmax, "log_softmax"),
    # one line a name gives torch.X, Tensor.X and Tensor.X_ (in place), with PyTorch's aliases
    ("asin arcsin", "torch Tensor Tensor_", unary(E.asin), "asin"),
    ("acos arccos", "torch Tensor Tensor_", unary(E.acos), "acos"),
    ("atan arctan", "torch Tensor Tensor_", unary(E.atan), "atan"),
    ("atan2 arctan2", "torch Tensor Tensor_", EW.atan2, "atan2"),
    ("sinh", "torch Tensor Tensor_", unary(E.sinh), "sinh"),
    ("cosh", "torch Tensor Tensor_", unary(E.cosh), "cosh"),
    ("asinh arcsinh", "torch Tensor Tensor_", unary(E.asinh), "asinh"),
    ("acosh arccosh", "torch Tensor Tensor_", unary(E.acosh), "acosh"),
    ("atanh arctanh", "torch Tensor Tensor_", unary(E.atanh), "atanh"),
    ("sinc", "torch Tensor Tensor_ special", unary(E.sinc), "sinc"),
    ("exp2", "torch Tensor Tensor_ special", unary(E.exp2), "exp2"),
    ("expm1", "torch Tensor Tensor_ special", unary(E.expm1), "expm1"),
    ("log2", "torch Tensor Tensor_", unary(E.log2), "log2"),
    ("log10", "torch Tensor Tensor_", unary(E.log10), "log10"),
    ("rsqrt", "torch Tensor Tensor_", unary(E.rsqrt), "rsqrt"),
    ("reciprocal", "torch Tensor Tensor_", unary(E.reciprocal), "reciprocal"),
    # PyTorch's square is pow(x, 2): PowBackward0
    ("square", "torch Tensor Tensor_", lambda input: pow(input, 2), "pow_scalar"),
    ("floor", "torch Tensor Tensor_", EW.floor, "floor"),
    ("ceil", "torch Tensor Tensor_", EW.ceil, "ceil"),
    ("round", "torch Tensor Tensor_", EW.round, "round"),
    ("trunc fix", "torch Tensor Tensor_", EW.trunc, "trunc"),
    ("frac", "torch Tensor Tensor_", EW.frac, "frac"),
    ("sgn", "torch Tensor Tensor_", EW.sgn, "sign"),
    ("heaviside", "torch Tensor Tensor_", EW.heaviside, "heaviside"),
    ("nan_to_num", "torch Tensor Tensor_", EW.nan_to_num, "nan_to_num"),
    ("floor_divide", "torch Tensor Tensor_", EW.floor_divide, "floor_divide"),
    ("remainder", "torch Tensor Tensor_", EW.remainder, "remainder rremainder"),
    ("fmod", "torch Tensor Tensor_", EW.fmod, "fmod"),
    # reductions
    ("sum", "torch Tensor", sum, "sum"),
    ("mean", "torch Tensor", mean, "mean"),
    ("prod", "torch Tensor", prod, "prod"),
    ("max", "torch Tensor", max, "max maximum"),
    ("min", "torch Tensor", min, "min minimum"),
    ("amax", "torch Tensor", amax, "max"),
    ("amin", "torch Tensor", amin, "min"),
    ("argmax", "torch Tensor", argmax, ""),
    ("argmin", "torch Tensor", argmin, ""),
    ("norm", "torch Tensor", torch_norm, "norm"),
    ("logsumexp", "torch Tensor special", logsumexp, "logsumexp"),
    ("var", "torch Tensor", var, "var"),
    ("std", "torch Tensor", std, "std"),
    # shape
    ("reshape", "torch", sizes_required(torch_reshape, "reshape", "shape"), "reshape"),
    (
        "reshape",
        "Tensor",
        sizes_required(_method_sizes(reshape, "shape"), "reshape", "shape"),
        "reshape",
    ),
    ("resize", "Tensor", _resize_method, "reshape"),
    ("view", "torch Tensor", _view_method, "reshape"),
    ("flatten", "torch Tensor", flatten, "reshape"),
    ("squeeze", "torch Tensor", squeeze, "reshape"),
    ("unsqueeze", "torch Tensor", unsqueeze, "reshape"),
    ("permute", "torch", sizes_required(permute, "permute", "dims"), "permute"),
    ("permute", "Tensor", sizes_required(_permute_method, "permute", "dims"), "permute"),
    ("transpose", "torch Tensor", transpose, "permute"),
    ("swapaxes swapdims", "torch Tensor", swapaxes, "permute"),
    ("t", "torch Tensor", t, "permute"),
    ("T", "property", T, "permute"),
    ("mT", "property", mT, "permute"),
    ("H", "property", H, "permute"),
    ("mH", "property", mH, "permute"),
    ("adjoint", "torch Tensor", _adjoint, "permute"),
    ("isreal", "torch Tensor", _isreal, ""),
    ("real", "torch property", real, "real"),
    ("imag", "torch property", imag, "imag"),
    ("conj", "torch Tensor", conj, "conj"),
    ("conj_physical", "torch Tensor", conj_physical, "conj"),
    ("resolve_conj", "torch Tensor", resolve_conj, ""),
    ("resolve_neg", "torch Tensor", resolve_neg, ""),
    ("angle", "torch Tensor", angle, "angle"),
    ("complex", "torch", complex_, "complex"),
    ("polar", "torch", polar, "composition of complex mul cos sin"),
    ("view_as_real", "torch", view_as_real, "view_as_real"),
    ("view_as_complex", "torch", view_as_complex, "view_as_complex"),
    ("expand", "torch", expand, "expand"),
    ("expand", "Tensor", sizes_required(_method_sizes(expand, "size"), "expand", "size"), "expand"),
    ("expand_as", "torch Tensor", expand_as, "expand"),
    ("broadcast_to", "torch Tensor", broadcast_to, "expand"),
    ("view_as", "torch Tensor", view_as, "reshape"),
    ("reshape_as", "torch Tensor", reshape_as, "reshape"),
    ("cat concat concatenate", "torch", cat, "cat"),
    ("stack", "torch", stack, "stack"),
    ("where", "torch", where, "where"),
    ("where", "Tensor", _where_method, "where"),
    ("__getitem__", "Tensor", getitem, "index"),
    # comparisons: constant masks
    ("lt less", "torch Tensor", lt, ""),
    ("le less_equal", "torch Tensor", le, ""),
    ("gt greater", "torch Tensor", gt, ""),
    ("ge greater_equal", "torch Tensor", ge, ""),
    ("eq", "torch Tensor", eq, ""),
    ("ne not_equal", "torch Tensor", ne, ""),
    # conversions and bookkeeping
    ("float", "Tensor", _conversion(np.float32), "astype"),
    ("double", "Tensor", _conversion(np.float64), "astype"),
    ("half", "Tensor", _conversion(np.float16), "astype"),
    ("bfloat16", "Tensor", _conversion(BF16), "astype"),
    ("long", "Tensor", _conversion(np.int64), ""),
    ("int", "Tensor", _conversion(np.int32), ""),
    ("short", "Tensor", _conversion(np.int16), ""),
    ("char", "Tensor", _conversion(np.int8), ""),
    ("byte", "Tensor", _conversion(np.uint8), ""),
    ("bool", "Tensor", _conversion(np.bool_), ""),
    ("cfloat", "Tensor", _conversion(np.complex64), "astype"),
    ("cdouble", "Tensor", _conversion(np.complex128), "astype"),
    ("to", "Tensor", _to, "astype"),
    ("type", "Tensor", _type, "astype"),
    ("new", "Tensor", _new, "index"),
    ("is_pinned is_shared", "Tensor", lambda x: False, ""),
    ("type_as", "Tensor", lambda x, other: to_dtype(x, other.dtype), "astype"),
    ("clone", "torch Tensor", clone, "clone"),
    ("cpu cuda", "Tensor", lambda x: x, ""),
    ("detach", "torch Tensor", _detach, ""),
    ("item", "Tensor", _item, ""),
    ("tolist", "Tensor", _tolist, ""),
    ("numel", "Tensor", Tensor.numel, ""),
    ("size", "Tensor", _size, ""),
    ("dim ndimension", "Tensor", lambda x: x.ndim, ""),
    ("backward", "Tensor", Tensor.backward, ""),
    ("retain_grad", "Tensor", Tensor.retain_grad, ""),
    ("register_hook", "Tensor", Tensor.register_hook, ""),
    ("register_post_accumulate_grad_hook", "Tensor", Tensor.register_post_accumulate_grad_hook, ""),
    ("is_inference", "torch Tensor", Tensor.is_inference, ""),
    ("detach_", "torch Tensor", Tensor.detach_, ""),
    ("requires_grad_", "Tensor", Tensor.requires_grad_, ""),
    ("numpy", "Tensor", _numpy, ""),
    # in place (x.X_ of the elementwise functions above: `Tensor_`)
    # views in place: x takes the view's shape (the record of the view)
    ("unsqueeze_", "Tensor", INPLACE["unsqueeze_"], "reshape"),
    ("squeeze_", "Tensor", INPLACE["squeeze_"], "reshape"),
    ("t_", "Tensor", INPLACE["t_"], "permute"),
    ("transpose_", "Tensor", INPLACE["transpose_"], "permute"),
    ("swapaxes_", "Tensor", INPLACE["swapaxes_"], "permute"),
    ("resize_", "Tensor", sizes_required(INPLACE["resize_"], "resize_", "size"), ""),
    ("set_", "Tensor", INPLACE["set_"], "set_source"),
    ("resize_as_", "Tensor", INPLACE["resize_as_"], ""),
    ("zero_", "Tensor", INPLACE["zero_"], _S + "mul"),
    ("fill_", "Tensor", INPLACE["fill_"], _S + "mul add"),
    ("copy_", "Tensor", INPLACE["copy_"], _S + "mul add"),
    ("add_", "Tensor", inplace_method(inplace_add, "add"), "add"),
    ("sub_", "Tensor", inplace_method(inplace_sub, "sub"), "sub"),
    ("subtract_", "Tensor", inplace_method(inplace_subtract, "sub"), "sub"),
    ("mul_", "Tensor", INPLACE["mul_"], "mul"),
    ("pow_", "Tensor", INPLACE["pow_"], "pow pow_scalar"),
    ("clamp_", "Tensor", INPLACE["clamp_"], "clamp where"),
    ("clamp_min_", "Tensor", INPLACE["clamp_min_"], "clamp where"),
    ("clamp_max_", "Tensor", INPLACE["clamp_max_"], "clamp where"),
    ("relu_", "Tensor", INPLACE["relu_"], "relu"),
    *((f"{name}_", "Tensor", INPLACE[f"{name}_"], name) for name in A.METHODS),
    # constructors
    ("tensor", "torch", tensor, ""),
    ("as_tensor", "torch", as_tensor, ""),
    ("from_numpy", "torch", from_numpy, ""),
    ("frombuffer", "torch", frombuffer, ""),
    ("Tensor", "torch", legacy_tensor, "index"),  # torch.Tensor(t): an alias of t (t[...])
    *(
        (name, "torch", t, "index" if name in ("FloatTensor", "DoubleTensor") else "")
        for name, t in LEGACY_TYPES_BY_NAME.items()
    ),
    ("Variable", "torch", Variable, ""),
    ("zeros", "torch", zeros, ""),
    ("ones", "torch", ones, ""),
    ("empty", "torch", empty, ""),
    ("empty_strided", "torch", empty_strided, ""),
    ("empty_permuted", "torch", empty_permuted, ""),
    ("new_empty_strided", "Tensor", new_empty_strided, ""),
    ("full", "torch", full, ""),
    ("fill", "torch", torch_fill, _S + "where"),
    ("eye", "torch", eye, ""),
    ("arange", "torch", arange, ""),
    ("range", "torch", range_, ""),
    ("linspace", "torch", linspace, ""),
    ("logspace", "torch", logspace, ""),
    ("zeros_like", "torch", zeros_like, ""),
    ("ones_like", "torch", ones_like, ""),
    ("empty_like", "torch", empty_like, ""),
    ("full_like", "torch", full_like, ""),
    # activations and losses (F's only: torch has no torch.gelu, torch.mse_loss, ...)
    ("leaky_relu", "F", leaky_relu, "leaky_relu"),
    ("softplus", "F", softplus, "softplus"),
    ("gelu", "F", gelu, "gelu"),
    ("mse_loss", "F", mse_loss, "mse_loss"),
    ("binary_cross_entropy", "F", binary_cross_entropy, "binary_cross_entropy"),
    ("nll_loss", "F", nll_loss, "nll_loss"),
    ("cross_entropy", "F", cross_entropy, _S + "log_softmax nll_loss mul neg sum div"),
    # nn.functional's activations, normalisation, convolution, pooling, padding and losses
    # (`nnfunctional`, `nnlosses`): those torch also has as torch.X, then F's own
    ("selu", "torch", NF.torch_selu, "elu"),
    ("celu", "torch", NF.torch_celu, "elu"),
    ("threshold", "torch", NF.torch_threshold, "threshold"),
    ("selu", "F", NF.selu, "elu"),
    ("celu", "F", NF.celu, "elu"),
    ("threshold", "F", NF.threshold, "threshold"),
    ("selu_", "torch", NF.selu_, "elu"),
    ("celu_", "torch", NF.celu_, "elu"),
    ("threshold_", "torch", NF.threshold_, "threshold"),
    ("hardshrink", "torch Tensor", NF.hardshrink, "hardshrink"),
    ("cosine_similarity", "torch", NF.cosine_similarity, _S + "norm mul sum div"),
    ("pairwise_distance", "torch", NF.pairwise_distance, _S + "sub add norm"),
    # torch's C++ functions whose arguments are not F's (`torch.batch_norm(x, w, b, rm, rv,
    # ...)`, `torch.embedding(weight, indices)`, an int reduction): one of each
    ("layer_norm", "torch", NF.torch_layer_norm, "layer_norm"),
    ("layer_norm", "F", NF.layer_norm, "layer_norm"),
    ("group_norm", "torch", NF.torch_group_norm, "group_norm"),
    ("group_norm", "F", NF.group_norm, "group_norm"),
    ("batch_norm", "torch", NF.torch_batch_norm, "batch_norm"),
    ("batch_norm", "F", NF.batch_norm, "batch_norm"),
    ("conv1d", "torch", NF.conv1d, "conv"),
    ("conv2d", "torch", NF.conv2d, "conv"),
    ("conv_transpose1d", "torch", NF.conv_transpose1d, "conv_transpose"),
    ("conv_transpose2d", "torch", NF.conv_transpose2d, "conv_transpose"),
    ("conv3d", "torch", NF.conv3d, "conv"),
    ("conv_transpose3d", "torch", NF.conv_transpose3d, "conv_transpose"),
    ("max_pool3d", "torch", NF.max_pool3d, "max_pool"),
    ("avg_pool3d", "F", NF.avg_pool3d, "avg_pool"),
    ("interpolate", "F", NF.interpolate, "upsample_nearest upsample_interp"),
    ("grid_sample", "F", NF.grid_sample, "grid_sample"),
    ("affine_grid", "F", NF.affine_grid, _S + "matmul permute reshape"),
    ("upsample", "F", NF.upsample, "upsample_nearest upsample_interp"),
    ("upsample_nearest", "F", NF.upsample_nearest, "upsample_nearest"),
    ("upsample_bilinear", "F", NF.upsample_bilinear, "upsample_interp"),
    ("max_pool1d", "torch", NF.max_pool1d, "max_pool reshape"),
    ("max_pool2d", "torch", NF.max_pool2d, "max_pool"),
    ("max_pool1d_with_indices", "torch", NF.max_pool1d_with_indices, "max_pool reshape"),
    ("max_pool2d_with_indices", "F", NF.max_pool2d_with_indices, "max_pool"),
    ("max_pool3d_with_indices", "F", NF.max_pool3d_with_indices, "max_pool"),
    ("avg_pool1d", "torch", NF.avg_pool1d, "avg_pool reshape"),
    ("embedding", "torch", NF.torch_embedding, _S + "index"),
    ("embedding", "F", NF.embedding, _S + "index"),
    ("kl_div", "torch", NL.torch_kl_div, _S + "xlogy sub mul mean"),
    ("kl_div", "F", NL.kl_div, _S + "xlogy sub mul mean"),
    ("margin_ranking_loss", "torch", NL.torch_margin_ranking_loss, _S + "sub mul add clamp mean"),
    ("margin_ranking_loss", "F", NL.margin_ranking_loss, _S + "sub mul add clamp mean"),
    ("triplet_margin_loss", "torch", NL.torch_triplet_margin_loss, _S + "sub add norm clamp mean"),
    ("triplet_margin_loss", "F", NL.triplet_margin_loss, _S + "sub add norm clamp mean"),
    (
        "hinge_embedding_loss",
        "torch",
        NL.torch_hinge_embedding_loss,
        _S + "sub add clamp where mean",
    ),
    ("hinge_embedding_loss", "F", NL.hinge_embedding_loss, _S + "sub add clamp where mean"),
    (
        "cosine_embedding_loss",
        "torch",
        NL.torch_cosine_embedding_loss,
        _S + "mul sum add sqrt div sub clamp where mean",
    ),
    (
        "cosine_embedding_loss",
        "F",
        NL.cosine_embedding_loss,
        _S + "mul sum add sqrt div sub clamp where mean",
    ),
    ("elu", "F", NF.elu, "elu"),
    ("hardtanh", "F", NF.hardtanh, "hardtanh"),
    ("elu_", "F", NF.elu_, "elu"),
    ("hardtanh_", "F", NF.hardtanh_, "hardtanh"),
    ("leaky_relu_", "F", NF.leaky_relu_, "leaky_relu"),
    ("relu6", "F", NF.relu6, "hardtanh"),
    ("softsign", "F", NF.softsign, _S + "abs add div"),
    ("mish", "F", NF.mish, "mish"),
    ("hardswish", "F", NF.hardswish, "hardswish"),
    ("hardsigmoid", "F", NF.hardsigmoid, "hardsigmoid"),
    ("softmin", "F", NF.softmin, _S + "neg softmax"),
    ("softshrink", "F", NF.softshrink, "softshrink"),
    ("tanhshrink", "F", NF.tanhshrink, _S + "tanh sub"),
    ("glu", "F", NF.glu, "glu"),
    ("normalize", "F", NF.normalize, _S + "norm clamp expand div"),
    ("pad", "F", NF.pad, _S + "index index_put"),
    ("avg_pool2d", "F", NF.avg_pool2d, "avg_pool"),
    ("unfold", "F", NF.unfold, "unfold reshape"),
    ("fold", "F", NF.fold, "fold reshape"),
    ("smooth_l1_loss", "F", NL.smooth_l1_loss, "smooth_l1_loss"),
    ("huber_loss", "F", NL.huber_loss, "huber_loss"),
    ("soft_margin_loss", "F", NL.soft_margin_loss, "soft_margin_loss"),
    ("poisson_nll_loss", "F", NL.poisson_nll_loss, _S + "exp mul sub mean"),
    ("poisson_nll_loss", "torch", NL.torch_poisson_nll_loss, _S + "exp mul sub mean"),
    (
        "gaussian_nll_loss",
        "F",
        NL.gaussian_nll_loss,
        _S + "sub pow_scalar div log add mul mean clone",
    ),
    (
        "multilabel_soft_margin_loss",
        "F",
        NL.multilabel_soft_margin_loss,
        _S + "logsigmoid neg mul sub add sum div mean",
    ),
    ("ctc_loss", "F", NL.ctc_loss, _S + "ctc_loss where div mean sum reshape"),
    # F's own softmax (the implicit dim)
    ("softmax", "F", f_softmax, "softmax"),
    ("log_softmax", "F", f_log_softmax, "log_softmax"),
    # the operators besides the arithmetic ones `ops.arithmetic` installs
    ("__lt__", "Tensor", lt, ""),
    ("__le__", "Tensor", le, ""),
    ("__gt__", "Tensor", gt, ""),
    ("__ge__", "Tensor", ge, ""),
    ("__floordiv__", "Tensor", EW.floor_divide, "floor_divide"),
    ("__rfloordiv__", "Tensor", lambda a, b: EW.floor_divide(b, a), "floor_divide"),
    ("__mod__", "Tensor", EW.remainder, "remainder rremainder"),
    ("__rmod__", "Tensor", lambda a, b: EW.remainder(b, a), "remainder rremainder"),
    # the arithmetic operators (installed by `ops.arithmetic`, where the rules need them)
    *((name, "Tensor", A.OPERATORS[name], rec) for name, rec in _ARITHMETIC.items()),
)

# The names that take complex tensors (the rest refuse them, `lang.calls`): their records
# declare complex rules (`Op.complex`), and their compositions are right for complex values.
COMPLEX_NAMES = frozenset(
    """
    SGD Adam AdamW RMSprop Adagrad Adadelta Adamax NAdam RAdam Rprop ASGD
    exp log sqrt sin cos tanh abs absolute neg negative reciprocal square pow
    add sub subtract mul multiply div divide true_divide sum mean matmul mm mv dot
    real imag conj conj_physical resolve_conj resolve_neg is_conj is_neg _is_view data_ptr angle
    complex     polar view_as_real
    view_as_complex is_complex is_floating_point is_tensor numel size dim ndimension
    reshape view view_as reshape_as flatten squeeze unsqueeze permute transpose swapaxes
    swapdims t adjoint expand expand_as broadcast_to cat concat concatenate stack
    __getitem__ clone detach detach_ item tolist numpy cpu contiguous
    backward retain_grad requires_grad_ register_hook grad zeros_like ones_like
    allclose isclose equal eq ne tensor as_tensor rand_like randn_like full_like to type
    add_ sub_ mul_ div_ neg_ exp_ log_ sqrt_ sin_ cos_ tanh_ pow_ reciprocal_ zero_ fill_
    copy_ conj_physical_ unbind split chunk __setitem__ sgn norm vector_norm
    inv inverse det solve dist matrix_norm svdvals vdot isreal cholesky cholesky_ex eigvalsh
    matrix_exp eig eigvals eigh svd qr pinv pinverse slogdet logdet diag diag_embed diagflat
    geqrf householder_product orgqr cholesky_solve cholesky_inverse lstsq lu lu_factor lu_factor_ex
    lu_solve
    lu_unpack solve_triangular
    lerp lerp_ masked_fill masked_fill_ masked_scatter masked_scatter_ index_fill index_fill_
    index_put index_put_ index_add index_add_ index_copy index_copy_ scatter scatter_
    masked_select gather index_select take repeat tile repeat_interleave triu tril scatter_add
    scatter_add_ cond
    diagonal trace float double half long int short cfloat cdouble flip fliplr flipud roll
    tan sinh cosh sigmoid log2 log10 rsqrt expm1 log1p asin acos atan arcsin arccos arctan
    linear Linear addmm where cumsum cumsum_ cumprod cumprod_
    uniform_ normal_ kaiming_uniform_ kaiming_normal_ xavier_uniform_ xavier_normal_ zeros_ ones_
    constant_ Conv1d Conv2d conv1d conv2d Sequential hash_tensor
    fill bessel_j0 bessel_j1 bessel_y0 bessel_y1 spherical_bessel_j0 modified_bessel_i0
    modified_bessel_i1 modified_bessel_k0 modified_bessel_k1 scaled_modified_bessel_k0
    scaled_modified_bessel_k1 airy_ai chebyshev_polynomial_t chebyshev_polynomial_u
    hermite_polynomial_h hermite_polynomial_he laguerre_polynomial_l legendre_polynomial_p
    chebyshev_polynomial_v chebyshev_polynomial_w shifted_chebyshev_polynomial_t
    shifted_chebyshev_polynomial_u shifted_chebyshev_polynomial_v shifted_chebyshev_polynomial_w
    fft ifft rfft irfft hfft ihfft fft2 ifft2 rfft2 irfft2 hfft2 ihfft2 fftn ifftn rfftn irfftn
    hfftn ihfftn fftshift ifftshift assert_close
    view_as_real_copy view_as_complex_copy t_copy permute_copy transpose_copy squeeze_copy
    unsqueeze_copy view_copy expand_copy unbind_copy split_copy diagonal_copy
    """.split()  # (the last: PyTorch's "not implemented for 'ComplexFloat'", in its words)
)

# PyTorch's own errors for a complex tensor given to a function that has no complex kernel
# (name -> the Python exception and its words; `{T}` the tensor's scalar type, ComplexFloat):
# what a program's `except` catches and prints, where gradcli would refuse the program.
_NO_KERNEL = "\"{k}\" not implemented for '{{T}}'"
COMPLEX_REFUSED: dict[str, tuple[str, str]] = {
    **dict.fromkeys(
        ("sign", "sign_"),
        (
            "NotImplementedError",
            "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
            "torch.sgn instead.",
        ),
    ),
    **dict.fromkeys(
        "clamp clamp_ clip clip_ clamp_min clamp_min_ clamp_max clamp_max_ relu relu_ "
        "hardtanh hardtanh_ relu6 ReLU ReLU6 Hardtanh".split(),
        ("NotImplementedError", "clamp is not supported for complex types"),
    ),
    **{
        n: (
            "NotImplementedError",
            f"{n.rstrip('_').replace('fix', 'trunc')} is not supported for complex inputs",
        )
        for n in "floor floor_ ceil ceil_ trunc trunc_ fix fix_".split()
    },  # fmt: skip
    **{
        n: ("NotImplementedError", _NO_KERNEL.format(k=k))
        for n, k in (
            ("frac", "frac_cpu"),
            ("mse_loss", "mse_cpu"),
            ("MSELoss", "mse_cpu"),
            ("frac_", "frac_cpu"),
            ("erf", "erf_vml_cpu"),
            ("erf_", "erf_vml_cpu"),
            ("fmod", "fmod_cpu"),
            ("remainder", "remainder_cpu"),
            ("atan2", "atan2_cpu"),
            ("arctan2", "atan2_cpu"),
            ("floor_divide", "div_floor_cpu"),
            ("lgamma", "lgamma_vml_cpu"),
            ("logit", "logit_cpu"),
            ("elu", "elu_cpu"),
        )
    },  # fmt: skip
    "sort": ("RuntimeError", " Sort does not support complex dtypes on CPU"),
    "topk": ("RuntimeError", " topk does not support complex dtypes on CPU"),
    "argmax": ("RuntimeError", "argmax(): does not support complex input"),
    "argmin": ("RuntimeError", "argmin(): does not support complex input"),
    "heaviside": ("RuntimeError", "heaviside is not yet implemented for complex tensors."),
    "maximum": ("RuntimeError", "maximum not implemented for complex tensors."),
    "minimum": ("RuntimeError", "minimum not implemented for complex tensors."),
    "amax": ("NotImplementedError", "\"max_values_cpu\" not implemented for '{T}'"),
    "amin": ("NotImplementedError", "\"min_values_cpu\" not implemented for '{T}'"),
    # (max / min: the words of the overload the arguments pick, `lang.calls`)
    "max": ("NotImplementedError", "\"max_all\" not implemented for '{T}'"),
    "min": ("NotImplementedError", "\"min_all\" not implemented for '{T}'"),
    "signbit": ("NotImplementedError", "signbit is not implemented for complex tensors."),
    "isposinf": ("RuntimeError", "isposinf does not support complex inputs."),
    "isneginf": ("RuntimeError", "isneginf does not support complex inputs."),
}

# The families (modules with a `NAMES` table), in the order of the tables. `sampling` and `nn`
# are imported at start-up anyway (a run seeds the generator; nn.Module is the language's);
# the others when a program first reaches one of their names (`family_index.INDEX` says
# which family has which name: start-up does not pay for torch.linalg, the nn layers, the
# statistics... in a program that does not use them).
FAMILIES = (
    "sampling",
    "composite",
    "rearrange",
    "statistics",
    "predicates",
    "scatter",
    "linalg",
    "special",
    "fft",
    "nn",
    "layers",
    "recurrent",
    "attention",
    "basics",
)
_LOADED: set[str] = {"sampling", "nn"}


def _names() -> list[Name]:
    """The declared names of the families imported so far (all of them: `NAMES`)."""
    out = list(DECLARED)
    for family in FAMILIES:
        if family in _LOADED:
            out += sys.modules[f"{__package__}.{family}"].NAMES
    return out


def __getattr__(name: str) -> Any:
    if name == "NAMES":  # every family's names (the catalog, the README's table, the tests)
        load_all()
        return _names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# One function per in-place method (`Tensor_`), made once: the tables are remade when a family
# is imported, and a function's identity is what call caches key on.
_INPLACE: dict[int, tuple[Callable[..., Any], Callable[..., Any]]] = {}


def _inplace(fn: Callable[..., Any], name: str | None = None) -> Callable[..., Any]:
    got = _INPLACE.get(id(fn))
    if got is None:
        got = _INPLACE[id(fn)] = (fn, inplace_method(fn, name))
    return got[1]


def _tables(names: list[Name]) -> dict[str, dict[str, Callable[..., Any]]]:
    """The namespaces of the declared names: `torch` (FUNCTIONS), `Tensor` (METHODS, with the
    in-place methods of `Tensor_`), `F` (NN_FUNCTIONAL: torch's names and F's own), `nn`
    (MODULES), `linalg` (LINALG), `special` (SPECIAL), `fft` (FFT), `property` and the operators
    (dunders of `Tensor`). A name declared twice in one place is an error."""
    out: dict[str, dict[str, Callable[..., Any]]] = {w: {} for w in WHERE}
    out["operator"] = {}

    def put(where: str, name: str, fn: Callable[..., Any]) -> None:
        if where == "Tensor" and name.startswith("__"):
            where = "operator"
        table = out[where]
        if name in table:
            raise ValueError(f"names: {where}.{name} is declared twice")
        table[name] = fn

    for n in names:
        for w in n.where:
            if w == "Tensor_":
                put("Tensor", n.name + "_", _inplace(n.fn, n.name))
            else:
                put(w, n.name, n.fn)
    return out


# The in-place forms torch also has as functions (`torch.sin_(x)`, `torch.relu_(x)`): the
# declared in-place methods (F has only relu_ of them).
_INPLACE_FUNCTIONS = (
    "abs_ acos_ acosh_ arccos_ arccosh_ arcsin_ arcsinh_ arctan_ arctanh_ asin_ asinh_ "
    "atan_ atanh_ ceil_ clamp_ clamp_max_ clamp_min_ cos_ cosh_ erf_ erfc_ exp2_ exp_ expm1_ "
    "fill_ fix_ floor_ frac_ i0_ log10_ log1p_ log2_ log_ logit_ nan_to_num_ neg_ "
    "clip_ deg2rad_ rad2deg_ negative_ gcd_ lcm_ conj_physical_ "
    "reciprocal_ relu_ round_ rsqrt_ sigmoid_ sin_ sinc_ sinh_ sqrt_ square_ tan_ tanh_ "
    "trunc_ xlogy_ zero_"
).split()


# PyTorch's in-place methods whose out-of-place method is declared in a family: x.X_(...) is
# x changed in place to x.X(...) (hand-written optimizers: `v.addcmul_(g, g, value=1 - b2)`,
# `p.addcdiv_(m, d, value=-lr)`; EMA: `e.lerp_(p, 0.01)`), recorded as PyTorch records X.
_DERIVED_INPLACE = (
    "addcmul addcdiv lerp hypot addmm addmv addr baddbmm addbmm tril triu cumsum cumprod "
    "eq ne lt le gt ge logical_and logical_or logical_xor logical_not bitwise_and bitwise_or "
    "bitwise_xor bitwise_not bitwise_left_shift bitwise_right_shift renorm deg2rad rad2deg gcd lcm "
    "conj_physical"
).split()
# PyTorch's other names of in-place methods
_INPLACE_ALIASES = {
    "clip_": "clamp_",
    "multiply_": "mul_",
    "true_divide_": "div_",
    "negative_": "neg_",
    "absolute_": "abs_",
    "greater_": "gt_",
    "greater_equal_": "ge_",
    "less_": "lt_",
    "less_equal_": "le_",
    "not_equal_": "ne_",
    "swapdims_": "swapaxes_",
}


# The names torch and F share where PyTorch's are two objects: torch's a C function, F's a Python
# one (`print(torch.relu)` is `<built-in method relu ...>`, `print(F.relu)` `<function relu
# ...>`, read off PyTorch 2.13). F holds a twin of torch's function (the same code, defaults
# and attributes: it computes, checks and is named as torch's) that is an object of its own, so
# that each prints as PyTorch's does.
F_TWINS = frozenset(
    "tanh sigmoid relu selu celu threshold layer_norm group_norm batch_norm max_pool1d "
    "max_pool2d max_pool3d max_pool1d_with_indices embedding kl_div margin_ranking_loss "
    "triplet_margin_loss hinge_embedding_loss cosine_embedding_loss "
    "binary_cross_entropy_with_logits rms_norm instance_norm adaptive_max_pool1d rrelu".split()
)
_TWINS: dict[int, tuple[Callable[..., Any], Callable[..., Any]]] = {}


def _twin(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A twin of the Python function `fn` (one per function, made once: the same object each
    time the tables are made again); anything but a plain function is itself."""
    if type(fn) is not FunctionType:
        return fn
    got = _TWINS.get(id(fn))
    if got is None or got[0] is not fn:
        got = _TWINS[id(fn)] = (fn, _copy_function(fn))
    return got[1]


def _copy_function(fn: FunctionType) -> FunctionType:
    """A new function object of fn's code, defaults, attributes and names."""
    twin = FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    twin.__kwdefaults__ = fn.__kwdefaults__
    twin.__dict__.update(fn.__dict__)
    twin.__qualname__, twin.__module__, twin.__doc__ = fn.__qualname__, fn.__module__, fn.__doc__
    return twin


_ALIAS_TWINS: dict[tuple[int, str], tuple[Callable[..., Any], Callable[..., Any]]] = {}


def _alias_twins(functions: dict[str, Callable[..., Any]]) -> None:
    """torch's other names of one function (`torch.subtract` of `torch.sub`, `torch.clip` of
    `torch.clamp`) are objects of their own in PyTorch, each printed by its name: each alias
    after the first holds a twin of the function (made once per name, as `_twin`)."""
    first: dict[int, str] = {}
    for name, fn in list(functions.items()):
        if type(fn) is not FunctionType:
            continue
        if first.setdefault(id(fn), name) == name:
            continue
        key = (id(fn), name)
        got = _ALIAS_TWINS.get(key)
        if got is None or got[0] is not fn:
            got = _ALIAS_TWINS[key] = (fn, _copy_function(fn))
        functions[name] = got[1]


def _made(names: list[Name]) -> dict[str, dict[str, Callable[..., Any]]]:
    """The tables of `names`, by the name of the module attribute that holds each."""
    t = _tables(names)
    functions, methods = t["torch"], t["Tensor"]
    _alias_twins(functions)
    nn_functional = {**functions, **t["F"]}
    for name in F_TWINS:
        fn = nn_functional.get(name)
        if fn is not None and fn is functions.get(name):
            nn_functional[name] = _twin(fn)
    for name in _DERIVED_INPLACE:
        if name in methods and f"{name}_" not in methods:
            methods[f"{name}_"] = inplace_method(methods[name], name)
    for alias, same in _INPLACE_ALIASES.items():
        if same in methods:
            methods[alias] = methods[same]
    functions.update({name: methods[name] for name in _INPLACE_FUNCTIONS if name in methods})
    nn_functional["relu_"] = methods["relu_"]
    return {
        "METHODS": methods,
        "FUNCTIONS": functions,
        "NN_FUNCTIONAL": nn_functional,
        "MODULES": t["nn"],
        "LINALG": t["linalg"],
        "SPECIAL": t["special"],
        "FFT": t["fft"],
        "OPERATORS": t["operator"],
        "PROPERTIES": t["property"],
    }


_CURRENT = _made(_names())
_LIVE: list[LazyTable] = []  # every lazy table, in the order they are remade


def raw(table: dict[str, Any]) -> dict[str, Any]:
    """A copy of what `table` holds now (no family imported for it)."""
    return dict(dict.items(table))  # (dict.copy of a subclass would call its keys())


class LazyTable(dict):
    """A table of names (`torch.X`, `x.X`, `F.X`, `nn.X`, `torch.linalg.X`, or a namespace
    built on one) whose families are imported when a name of theirs is first looked up
    (`in`, `[]`, `get`); iterating over it imports every family. `index` names the table of
    `family_index.INDEX` its names are found in; `build()` makes its contents from the tables
    as they are (called again when a family is imported, in the order the tables were made)."""

    __slots__ = ("index", "build")

    def __init__(self, index: str, build: Callable[[], dict[str, Any]]) -> None:
        super().__init__(build())
        self.index = index
        self.build = build
        _LIVE.append(self)

    def _imports(self, key: Any) -> bool:
        """Import the family that has `key` in this table, if it is not yet: whether it did."""
        family = _INDEX()[self.index].get(key) if isinstance(key, str) else None
        if family is None or family in _LOADED:
            return False
        load_family(family)
        return dict.__contains__(self, key)

    def __missing__(self, key: Any) -> Any:
        if self._imports(key):
            return dict.__getitem__(self, key)
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or self._imports(key)

    def get(self, key: Any, default: Any = None) -> Any:
        if dict.__contains__(self, key) or self._imports(key):
            return dict.__getitem__(self, key)
        return default

    def __iter__(self) -> Any:
        load_all()
        return dict.__iter__(self)

    def __len__(self) -> int:
        load_all()
        return dict.__len__(self)

    def keys(self) -> Any:
        load_all()
        return dict.keys(self)

    def values(self) -> Any:
        load_all()
        return dict.values(self)

    def items(self) -> Any:
        load_all()
        return dict.items(self)

    def copy(self) -> dict[str, Any]:
        load_all()
        return dict(dict.items(self))

    def __repr__(self) -> str:
        load_all()
        return dict.__repr__(self)

    def __eq__(self, other: object) -> bool:
        load_all()
        return dict.__eq__(self, other)

    __hash__ = None  # type: ignore[assignment]


# Tensor methods (x.X), functions (torch.X), torch.nn.functional (F.X: torch's functions and
# F's own), modules (nn.X), torch.linalg.X; the operators and properties of Tensor (no family
# has any: they are all declared here, installed once).
METHODS: dict[str, Callable[..., Any]] = LazyTable("METHODS", lambda: _CURRENT["METHODS"])
FUNCTIONS: dict[str, Callable[..., Any]] = LazyTable("FUNCTIONS", lambda: _CURRENT["FUNCTIONS"])
NN_FUNCTIONAL: dict[str, Callable[..., Any]] = LazyTable(
    "NN_FUNCTIONAL", lambda: _CURRENT["NN_FUNCTIONAL"]
)
MODULES: dict[str, Callable[..., Any]] = LazyTable("MODULES", lambda: _CURRENT["MODULES"])
LINALG: dict[str, Callable[..., Any]] = LazyTable("LINALG", lambda: _CURRENT["LINALG"])
SPECIAL: dict[str, Callable[..., Any]] = LazyTable("SPECIAL", lambda: _CURRENT["SPECIAL"])
FFT: dict[str, Callable[..., Any]] = LazyTable("FFT", lambda: _CURRENT["FFT"])
OPERATORS: dict[str, Callable[..., Any]] = _CURRENT["OPERATORS"]
PROPERTIES: dict[str, Callable[..., Any]] = _CURRENT["PROPERTIES"]


def _INDEX() -> dict[str, dict[str, str]]:
    from .family_index import INDEX

    return INDEX


def load_family(family: str) -> None:
    """Import `family` (and whatever families it imports) and remake the tables with their
    names, in the order of `FAMILIES`; their Tensor methods are installed."""
    import importlib

    importlib.import_module(f"{__package__}.{family}")
    now = {f for f in FAMILIES if f"{__package__}.{f}" in sys.modules}
    if now <= _LOADED:
        return
    _LOADED.update(now)
    global _CURRENT
    _CURRENT = _made(_names())
    if OPERATORS != _CURRENT["OPERATORS"] or PROPERTIES != _CURRENT["PROPERTIES"]:
        raise ValueError(f"names: family {family!r} declares an operator or a property")
    for table in _LIVE:
        contents = table.build()
        dict.clear(table)
        dict.update(table, contents)
    _install_methods()


def load_all() -> None:
    """Import every family (what iterating over a table needs)."""
    for family in FAMILIES:
        if family not in _LOADED:
            load_family(family)


def index() -> dict[str, dict[str, str]]:
    """Which family makes each name appear in each lazy table (`family_index.INDEX`, which
    tests/surface/test_declarations.py checks against this)."""
    base = {k: set(v) for k, v in _made(_names_of(set(_EAGER))).items()}
    out: dict[str, dict[str, str]] = {
        k: {}
        for k in ("METHODS", "FUNCTIONS", "NN_FUNCTIONAL", "MODULES", "LINALG", "SPECIAL", "FFT")
    }
    for family in FAMILIES:
        if family in _EAGER:
            continue
        made = _made(_names_of(set(_EAGER) | {family}))
        for table, names in out.items():
            for name in made[table]:
                if name not in base[table]:
                    names[name] = family
    return out


_EAGER = ("sampling", "nn")


def _names_of(families: set[str]) -> list[Name]:
    import importlib

    out = list(DECLARED)
    for family in FAMILIES:
        if family in families:
            out += importlib.import_module(f"{__package__}.{family}").NAMES
    return out


def _install_methods() -> None:
    for name, fn in dict.items(METHODS):
        if isinstance(Tensor.__dict__.get(name), _LazyMethod):
            setattr(Tensor, name, fn)
        elif not hasattr(Tensor, name) or name in ("size",):
            setattr(Tensor, name, fn)


class _LazyMethod:
    """A Tensor method of a family not imported yet (`x.flip(0)` in gradcli's own code, or
    `torch.Tensor.flip`): reading it imports the family, which installs the method in its
    place. (A class attribute, not `Tensor.__getattr__`: a missing attribute stays a fast
    miss on the engine's path.)"""

    __slots__ = ("name", "family")

    def __init__(self, name: str, family: str) -> None:
        self.name, self.family = name, family

    def __get__(self, obj: Any, cls: Any = None) -> Any:
        load_family(self.family)
        if isinstance(Tensor.__dict__.get(self.name), _LazyMethod):  # not installed after all
            raise AttributeError(f"'Tensor' object has no attribute '{self.name}'")
        return getattr(Tensor if obj is None else obj, self.name)


def _install() -> None:
    for name, fn in OPERATORS.items():
        setattr(Tensor, name, fn)
    _install_methods()
    for name, family in _INDEX()["METHODS"].items():
        if family not in _LOADED and not hasattr(Tensor, name):
            setattr(Tensor, name, _LazyMethod(name, family))
    # `x += y` and `x[i] = v` change the tensor in place, as for torch tensors.
    for name, method in (("__iadd__", "add_"), ("__isub__", "sub_"), ("__imul__", "mul_")):
        setattr(Tensor, name, METHODS[method])
    Tensor.__itruediv__ = METHODS["div_"]  # type: ignore[attr-defined]
    Tensor.__setitem__ = I.setitem  # type: ignore[attr-defined]
    for name, fn in PROPERTIES.items():
        setattr(Tensor, name, property(fn))
    Tensor.__repr__ = tensor_repr  # type: ignore[method-assign]


_install()
