"""PyTorch's argument conventions, checked with PyTorch's error wording: ints, dims (negative
from the end), sizes given as `*sizes` or one tuple, reshape's -1, lists of tensors, the
`reduction=` of losses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import ArgumentTypeError, GradcliError, NotSupported
from ..core import hooks
from ..core.dtypes import check_dtype, promote_types, scalar_type_name
from ..core.tensor import Settings, Tensor, pytype_name, typename


def parsed_number(v: Any) -> Any:
    """A 0-dim tensor that needs no gradient is the Python number of its value where PyTorch's
    argument parser wants a Number (`torch.arange(i, i + 4)`, `torch.normal(m, s, size)` of
    0-dim tensors); any other value as it is (a tensor of more than one dimension, or one that
    requires grad, is not a Number to PyTorch: the caller's TypeError)."""
    if isinstance(v, Tensor) and v.ndim == 0 and not v.requires_grad:
        return v.data.reshape(()).item()
    return numpy_number(v)


def parsed_int(v: Any) -> Any:
    """A 0-dim integer tensor is the int it holds where PyTorch's parser wants an int (an
    element of `pad`, tril's `diagonal`); any other value as it is."""
    if isinstance(v, Tensor) and v.ndim == 0 and v.data.dtype.kind in "iu":
        return int(v.data.reshape(()))
    return v


def numpy_number(v: Any) -> Any:
    """A NumPy scalar where PyTorch's argument parser wants a Number (`torch.full(shape,
    np.float32(1.5))`): an integer one is the int it holds, a floating or bool one the float
    (PyTorch reads np.True_ as 1.0, not as a bool); any other value as it is."""
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, (np.floating, np.bool_)):
        return float(v)
    return v


def int_arg(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        if isinstance(v, Tensor) and v.data.size == 1 and v.dtype.kind in "iu":
            return int(v.data.reshape(()))
        # PyTorch's argument parser refuses a wrong type with a TypeError
        raise GradcliError(f"{what} must be an int, not {typename(v)}").mirror("TypeError")
    return int(v)


def kernel_dtype(dt: np.dtype, kernel: str, kinds: str = "fc") -> None:
    """Whether ATen's `kernel` has a loop for `dt` (floats and complex: `kinds`); an integer or
    bool dtype refused in PyTorch's words, never computed as a float in silence."""
    if dt.kind not in kinds:
        raise GradcliError(
            f"\"{kernel}\" not implemented for '{scalar_type_name(dt)}'",
            hint="convert first: x.float()",
        ).mirror("NotImplementedError")


def float_kernel(x: Tensor, kernel: str, kinds: str = "fc") -> Tensor:
    """x, when ATen's `kernel` has a loop for its dtype (`kernel_dtype`)."""
    kernel_dtype(x.dtype, kernel, kinds)
    return x


def float_common(x: Tensor, y: Tensor, kernel: str) -> None:
    """A kernel that runs in its two inputs' common dtype (a loss, hypot): floats only."""
    kernel_dtype(promote_types(x.dtype, y.dtype), kernel, "f")


def check_dim(dim: Any, ndim: int) -> int:
    d = int_arg(dim, "dim")
    n = max(ndim, 1)
    if not -n <= d < n:
        raise GradcliError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})"
        ).mirror("IndexError")
    return d % n


def size_at(shape: tuple[int, ...], dim: int) -> int:
    """`t.size(dim)` as ATen's C++ reads it: IndexError for a dim out of range (a 0-d tensor has
    no dimensions at all)."""
    if not shape:
        raise GradcliError(f"Dimension specified as {dim} but tensor has no dimensions").mirror(
            "IndexError"
        )
    return shape[check_dim(dim, len(shape))]


def dims_arg(dim: Any, ndim: int) -> Any:
    if dim is None:
        return None
    if isinstance(dim, (tuple, list)):
        dims = tuple(check_dim(d, ndim) for d in dim)
        repeated_dims(dims)
        return dims
    return check_dim(dim, ndim)


def reduction_dims(dim: Any, ndim: int) -> Any:
    """The dims of a reduction (sum, mean, var, norm...): as `dims_arg`, but an empty list of
    dims reduces over all of them, as PyTorch's (`x.sum(dim=tuple(range(1, x.ndim)))` of a
    1-D x is its whole sum; NumPy's `axis=()` would reduce nothing)."""
    if isinstance(dim, (tuple, list)) and len(dim) == 0:
        return None
    return dims_arg(dim, ndim)


def repeated_dims(dims: Sequence[int]) -> None:
    """ATen's check of a reduction's dims (wrapped): each at most once."""
    seen: set[int] = set()
    for d in dims:
        if d in seen:
            raise GradcliError(f"dim {d} appears multiple times in the list of dims")
        seen.add(d)


def _int_like(v: Any, bool_ok: bool) -> bool:
    if isinstance(v, bool):
        return bool_ok
    if isinstance(v, (int, np.integer)):
        return True
    return isinstance(v, Tensor) and v.data.size == 1 and v.dtype.kind in "iu"


def parser_typename(v: Any) -> str:
    """A value's type as PyTorch's argument parser details it: a sequence with its elements'
    types (`list of [int, float]`)."""
    if isinstance(v, (list, tuple)):
        kinds = list(dict.fromkeys(parser_typename(u) for u in v))
        return f"{typename(v)} of [{', '.join(kinds)}]" if kinds else typename(v)
    return pytype_name(v)


def invalid_combination(fn: str, v: Any, overloads: Sequence[str]) -> GradcliError:
    """PyTorch's parser error when none of `fn`'s overloads (their signatures, e.g.
    "tuple of ints size") takes the one argument `v`."""
    why = (
        "      didn't match because some of the arguments have invalid types: "
        f"(!{parser_typename(v)}!)"
    )
    listed = "".join(f" * ({o})\n{why}\n" for o in overloads)
    return GradcliError(
        f"{fn}() received an invalid combination of arguments - got ({pytype_name(v)}), "
        f"but expected one of:\n{listed}"
    ).mirror("TypeError")


def int_list(
    args: Sequence[Any], fn: str, name: str = "size", position: int = 1, keyword: bool = False
) -> tuple[Any, ...]:
    """A `tuple of ints` argument as PyTorch's argument parser takes it: several ints
    (`zeros(2, 3)`), one sequence (`zeros((2, 3))`, `zeros([2, 3])`) or one int, with the
    parser's TypeErrors (its words differ for the first element of a sequence and the later
    ones, for a lone value, and for a `name=` keyword). Values are checked, not converted."""

    def refuse(text: str) -> GradcliError:
        return GradcliError(text).mirror("TypeError")

    where = f"argument '{name}'" if keyword else f"argument '{name}' (position {position})"
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        seq = tuple(args[0])
    elif len(args) == 1:
        if not _int_like(args[0], bool_ok=False) or keyword:
            raise refuse(f"{fn}(): {where} must be tuple of ints, not {pytype_name(args[0])}")
        return tuple(args)
    else:
        if args and not _int_like(args[0], bool_ok=False):
            raise refuse(f"{fn}() takes {position} positional argument but {len(args)} were given")
        seq = tuple(args)
    for i, v in enumerate(seq):
        if _int_like(v, bool_ok=i > 0):
            continue
        if i == 0 and keyword:
            raise refuse(f"{fn}(): {where} must be tuple of ints, not {typename(args[0])}")
        if i == 0:
            raise refuse(
                f"{fn}(): {where} must be tuple of ints, but found element of type "
                f"{pytype_name(v)} at pos 0"
            )
        raise refuse(
            f"{fn}(): argument '{name}' failed to unpack the object at pos {i + 1} with error "
            f'"type must be tuple of ints,but got {pytype_name(v)}"'
        )
    return seq


def shape_arg(
    args: Sequence[Any],
    what: str = "size",
    infer: bool = False,
    fn: str | None = None,
    negative: bool = False,
) -> tuple[int, ...]:
    """`zeros(2, 3)` and `zeros((2, 3))` / `zeros([2, 3])` alike; checks the element limit
    before anything is allocated. `infer`: a -1 is allowed (reshape, expand). `fn`: the
    function's name, for PyTorch's parser errors (`int_list`). `negative`: any negative size
    passes (expand checks its sizes itself, as ATen's)."""
    if fn is not None:
        args = int_list(args, fn, what)
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    shape = []
    for a in args:
        n = int(a) if fn is not None and isinstance(a, bool) else int_arg(a, what)
        if n < -1 and infer and fn in _INFER_SIZE:
            pass  # (ATen's infer_size names it, in its order: `infer_shape`)
        elif n < 0 and not negative and (n != -1 or not infer):
            if fn == "zeros":  # ATen's zeros checks its sizes itself
                raise GradcliError("zeros: Dimension size must be non-negative.")
            raise GradcliError(f"Trying to create tensor with negative dimension {n}: {list(args)}")
        shape.append(n)
    total = 1
    for n in shape:
        total *= max(n, 0)
        if total > limits.TENSOR_ELEMENTS.value:
            limits.TENSOR_ELEMENTS.check(total, f"a tensor of shape {list(shape)}")
    return tuple(shape)


class MemoryFormat:
    """`torch.preserve_format`, `torch.contiguous_format`, `torch.channels_last(_3d)`: the
    `memory_format=` of clone(), contiguous() and the `*_like` constructors (optimizer code
    writes `torch.zeros_like(p, memory_format=torch.preserve_format)`)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    __str__ = __repr__

    def program_typename(self) -> str:
        return "torch.memory_format"


MEMORY_FORMATS = {
    n: MemoryFormat(n)
    for n in ("preserve_format", "contiguous_format", "channels_last", "channels_last_3d")
}


def memory_format_arg(v: Any, fn: str, shape: Any = None) -> str:
    """ "preserve" (None, torch.preserve_format), "contiguous", "channels_last" or
    "channels_last_3d"; with `shape`, a channels-last format of a tensor of another rank is
    PyTorch's RuntimeError."""
    if v is None or v is MEMORY_FORMATS["preserve_format"]:
        return "preserve"
    if v is MEMORY_FORMATS["contiguous_format"]:
        return "contiguous"
    if isinstance(v, MemoryFormat):
        rank = 4 if v.name == "channels_last" else 5
        if shape is not None and len(shape) != rank:
            raise GradcliError(
                f"required rank {rank} tensor to use {v.name} format",
                hint=f"{v.name} lays out {rank}-d tensors (N, C, "
                + ("H, W)" if rank == 4 else "D, H, W)"),
            ).mirror("RuntimeError")
        return v.name
    raise GradcliError(
        f"{fn}(): argument 'memory_format' must be torch.memory_format, not {pytype_name(v)}"
    ).mirror("TypeError")


# Tensor.to's overloads, as PyTorch's parser lists them in its error, and their parameters
# (name, kind) in order; `memory_format` is a keyword of each.
_TO_OPTIONS = [
    "(torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, "
    "bool copy = False, *, torch.memory_format memory_format = None)",
    "(torch.dtype dtype, bool non_blocking = False, bool copy = False, *, "
    "torch.memory_format memory_format = None)",
    "(Tensor tensor, bool non_blocking = False, bool copy = False, *, "
    "torch.memory_format memory_format = None)",
]
_TO_PARAMS = (
    (("device", "device"), ("dtype", "dtype?"), ("non_blocking", "bool"), ("copy", "bool")),
    (("dtype", "dtype!"), ("non_blocking", "bool"), ("copy", "bool")),
    (("tensor", "tensor"), ("non_blocking", "bool"), ("copy", "bool")),
)


def _to_fits(kind: str, v: Any) -> bool:
    if kind == "device":  # a string, a torch.device value (the language's) or an index
        return (
            v is None
            or isinstance(v, str)
            or type(v).__name__ == "Device"
            or (isinstance(v, (int, np.integer)) and not isinstance(v, bool))
        )
    if kind in ("dtype", "dtype?", "dtype!"):
        if v is None:
            return kind == "dtype?"
        if kind == "dtype!" and isinstance(v, (bool, float)):
            return True  # (x.to(True), x.to(2.5): the parser takes the value's type)
        try:
            check_dtype(v)
        except GradcliError:
            return False
        return True
    if kind == "tensor":
        return isinstance(v, Tensor)
    if kind == "bool":
        return isinstance(v, bool)
    return v is None or isinstance(v, MemoryFormat)  # memory_format


def to_bind(args: tuple, kwargs: dict) -> dict[str, Any]:
    """The arguments of `x.to(...)` (and of `module.to(...)`, whose parser is the same) bound
    to the first of its overloads that takes them, or PyTorch's TypeError
    (`x.to(requires_grad=True)`, `x.to(torch.float64, "cpu")`)."""
    from .callerrors import _invalid_combination

    if len(args) > 4:
        raise GradcliError(
            f"to() takes from 0 to 4 positional arguments but {len(args)} were given"
        ).mirror("TypeError")
    for params in _TO_PARAMS:
        if len(args) > len(params):
            continue
        kinds = dict(params)
        kinds["memory_format"] = "memory_format"
        bound = {}
        for (name, kind), v in zip(params, args):
            if not _to_fits(kind, v):
                break
            bound[name] = v
        else:
            for k, v in kwargs.items():
                if k not in kinds or k in bound or not _to_fits(kinds[k].rstrip("!"), v):
                    break
                bound[k] = v
            else:
                return bound
    words = _invalid_combination("to", _TO_OPTIONS, list(args), kwargs)
    raise GradcliError(words or "to() received an invalid combination of arguments").mirror(
        "TypeError"
    )


def to_device_check(device: Any) -> bool:
    """The device a bound `to(...)` names must be the CPU or the meta device (a device index
    names an accelerator, which PyTorch's CPU build does not have): whether it is meta."""
    if device is None:
        return False
    if isinstance(device, (int, np.integer)):
        raise GradcliError("Cannot access accelerator device when none is available.").mirror(
            "RuntimeError"
        )
    return meta_or_cpu(str(device))


def meta_or_cpu(spec: str) -> bool:
    """Whether a device string names the meta device; else it must name the CPU."""
    if spec.startswith("meta") and device_arg(spec)[0] == "meta":
        return True
    cpu_device(spec)
    return False


def to_dtype_of(bound: dict[str, Any]) -> Any:
    """The dtype a bound `to(...)` asks for (None: none): the tensor's, the dtype given, or
    the type of a value given for it (`x.to(True)` is x.to(torch.bool), `x.to(2.5)`
    x.to(torch.float64), as PyTorch's parser reads them)."""
    other = bound.get("tensor")
    if other is not None:
        return other.dtype
    dtype = bound.get("dtype")
    if isinstance(dtype, bool):
        return np.dtype(bool)
    if isinstance(dtype, float):
        return np.dtype(np.float64)
    return dtype


class _Unset:
    """The default of a `size=` keyword that was not given (shown as None in signatures)."""

    def __repr__(self) -> str:
        return "None"


NO_SIZE: Any = _Unset()


def sizes_arg(sizes: Sequence[Any], size: Any, fn: str) -> tuple[int, ...]:
    """The shape of a constructor that takes `*size` or `size=` (`torch.zeros(2, 3)`,
    `torch.zeros((2, 3))`, `torch.zeros(size=(2, 3))`), with PyTorch's words for both at once
    or a `size=` that is not a sequence. `size` is `NO_SIZE` when the keyword was not given."""
    if size is not NO_SIZE:
        if sizes:
            raise GradcliError(f"{fn}() got multiple values for argument 'size'").mirror(
                "TypeError"
            )
        if isinstance(size, Tensor) or not isinstance(size, (tuple, list)):
            raise GradcliError(
                f"{fn}(): argument 'size' must be tuple of ints, not {typename(size)}"
            ).mirror("TypeError")
        int_list((size,), fn, keyword=True)
        sizes = (size,)
    elif not sizes and fn in _SIZE_REQUIRED:
        raise GradcliError(f'{fn}() missing 1 required positional arguments: "size"').mirror(
            "TypeError"
        )
    return shape_arg(sizes, fn=fn)


# the constructors whose `size` has no default in PyTorch (`torch.zeros()` is an error; the
# random ones, given nothing, name their overloads)
_SIZE_REQUIRED = frozenset({"zeros", "ones", "empty"})


# the functions whose sizes ATen's infer_size reads (a size below -1 is its error, not the
# constructors' "negative dimension")
_INFER_SIZE = frozenset({"view", "reshape"})


def infer_shape(shape: tuple[int, ...], size: int) -> tuple[int, ...]:
    """The shape `view`/`reshape` make of `size` elements, as ATen's infer_size: its checks in
    its order, and its words."""
    known, inferred = 1, None
    for i, s in enumerate(shape):
        if s == -1:
            if inferred is not None:
                raise GradcliError("only one dimension can be inferred")
            inferred = i
        elif s >= 0:
            known *= s
        else:
            raise GradcliError(f"invalid shape dimension {s} at index {i} of shape {list(shape)}")
    if size == known or (inferred is not None and known > 0 and size % known == 0):
        if inferred is None:
            return shape
        if known == 0:  # (0 elements and a 0 among the sizes: -1 could be anything)
            raise GradcliError(
                f"cannot reshape tensor of 0 elements into shape {list(shape)} because the "
                "unspecified dimension size -1 can be any value and is ambiguous"
            )
        return tuple(size // known if s == -1 else s for s in shape)
    raise GradcliError(f"shape '{list(shape)}' is invalid for input of size {size}")


def new_tensor(shape_or_data: Any, dtype: Any, requires_grad: bool) -> Tensor:
    return Tensor(shape_or_data, requires_grad=requires_grad, dtype=dtype)


def float_dtype(dtype: Any, fn: str | None = None) -> np.dtype:
    """A `dtype=` argument (only PyTorch's dtypes), the default float dtype when None."""
    return Settings.default_dtype if dtype is None else check_dtype(dtype, fn=fn)


def tensor_list(tensors: Any, fn: str) -> list[Tensor]:
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise ArgumentTypeError(fn, "tensors", 1, "tuple of Tensors", typename(tensors))
    if not tensors:
        if fn == "stack":
            raise GradcliError("stack expects a non-empty TensorList")
        raise GradcliError(f"torch.{fn}(): expected a non-empty list of Tensors").mirror(
            "ValueError"
        )
    if all(type(t) is Tensor for t in tensors):  # the common case, without a call each
        return list(tensors)
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):  # PyTorch's parser takes no number in a TensorList
            raise GradcliError(
                f"expected Tensor as element {i} in argument 0, but got {pytype_name(t)}"
            ).mirror("TypeError")
    return list(tensors)


ELEMENTWISE_MEAN = (
    "reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead."
)


def reduction_arg(reduction: Any, warn: bool = True) -> str:
    """The reduction of a loss as PyTorch's `_Reduction.get_enum` reads it: the deprecated
    'elementwise_mean' is 'mean', with its warning (`warn`: the call computes the loss; a
    module's constructor checks without warning, PyTorch warns when it is called); anything
    else but 'mean', 'sum' and 'none' is its ValueError."""
    if reduction == "elementwise_mean":
        if warn:
            hooks.warn(ELEMENTWISE_MEAN)
        return "mean"
    if reduction not in ("mean", "sum", "none"):
        raise GradcliError(
            f"{reduction} is not a valid value for reduction", expected="'mean', 'sum' or 'none'"
        ).mirror("ValueError")
    return reduction


def legacy_reduction(size_average: Any, reduce: Any, reduction: Any) -> Any:
    """The `reduction` a loss computes with, from PyTorch's deprecated `size_average` / `reduce`
    when either is given (each defaults to True): reduce=False is 'none' (size_average is then
    ignored), else size_average=False is 'sum' and True is 'mean'; as PyTorch, they win over
    `reduction`."""
    if size_average is None and reduce is None:
        return reduction
    if reduce is not None and not reduce:
        return "none"
    return "mean" if size_average is None or size_average else "sum"


def legacy_reductions(fn: Any) -> Any:
    """A loss function taking `size_average` / `reduce` (by keyword or in their positions, as
    PyTorch's signatures place them) and computing with the reduction they stand for."""
    import functools
    import inspect

    sig = inspect.signature(fn)
    names = list(sig.parameters)
    # the arguments before the first of the two: a call of no more positional ones, and
    # neither by keyword, computes with `reduction` as it is (no binding: a training loop's
    # loss is called every step)
    plain = min(names.index(n) for n in ("size_average", "reduce") if n in names)

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        if len(args) <= plain and "size_average" not in kwargs and "reduce" not in kwargs:
            return fn(*args, **kwargs)
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError:
            return fn(*args, **kwargs)  # the function's own words for a wrong call
        a = bound.arguments
        if a.get("size_average") is not None or a.get("reduce") is not None:
            a["reduction"] = r = legacy_reduction(
                a.pop("size_average", None), a.pop("reduce", None), a.get("reduction", "mean")
            )
            # PyTorch's warning, shown once for each loss function and text (Python's default
            # filter: one place in torch.nn.functional for each function)
            hooks.warn(
                "size_average and reduce args will be deprecated, please use "
                f"reduction='{r}' instead.",
                once=f"legacy reduction {fn.__name__} {r}",
            )
            return fn(*bound.args, **bound.kwargs)
        return fn(*args, **kwargs)

    return call


# The device types PyTorch's device-string parser knows, in its order (its error lists them).
DEVICE_TYPES = (
    "cpu",
    "cuda",
    "ipu",
    "xpu",
    "mkldnn",
    "opengl",
    "opencl",
    "ideep",
    "hip",
    "ve",
    "fpga",
    "maia",
    "xla",
    "lazy",
    "vulkan",
    "mps",
    "meta",
    "hpu",
    "mtia",
    "privateuseone",
)


def device_arg(spec: str) -> tuple[str, int | None]:
    """A device string (`"cpu"`, `"cuda:0"`) as (type, index), checked as PyTorch parses it:
    a name of letters and underscores, then optionally `:` and an index without leading zeros,
    and the name one of PyTorch's device types. The errors are PyTorch's; as a string given
    where a device goes is often meant as a dtype (`x.to("float64")`, NumPy's `"O"`), they say
    how a dtype is written."""
    name, colon, index = spec.partition(":")
    if not spec:
        raise GradcliError("Device string must not be empty").mirror("RuntimeError")
    good_name = bool(name) and all(c.isascii() and (c.isalpha() or c == "_") for c in name)
    good_index = (
        not colon
        or index == "0"
        or (index.isascii() and index.isdigit() and not index.startswith("0"))
    )
    valid = good_name and good_index
    if not valid:
        message = f"Invalid device string: '{spec}'"
    elif name not in DEVICE_TYPES:
        message = (
            f"Expected one of {', '.join(DEVICE_TYPES)} device type at start of device string: "
            + name
        )
    else:
        return name, int(index) if colon else None
    found = dtype_lookalike(spec)
    if found is None:  # (`torch.device('gpu')`: a device misnamed)
        raise GradcliError(
            message,
            expected="a device type: 'cpu', 'cuda', 'cuda:0', 'mps', ...",
            hint="gradcli computes on the CPU: write 'cpu', or torch.device('cuda' if "
            "torch.cuda.is_available() else 'cpu')",
        ).mirror("RuntimeError")
    raise GradcliError(
        message,
        found=found,
        expected="a device ('cpu'), or a dtype written as torch.float32, torch.int64, ...",
        hint="a string names a device; a dtype is torch.<name>, not a string: dtype=torch.float64, "
        "x.to(torch.float64)",
    ).mirror("RuntimeError")


CUDA_HINT = (
    "gradcli runs as PyTorch does on a machine without a GPU: leave the device out, or write "
    "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')"
)


def no_accelerator(name: str = "cuda") -> GradcliError:
    """PyTorch's error for a CUDA (or XPU) device asked of a build without one (the CPU build
    gradcli mirrors): an AssertionError a program can catch."""
    backend = "XPU" if name == "xpu" else "CUDA"
    return GradcliError(f"Torch not compiled with {backend} enabled", hint=CUDA_HINT).mirror(
        "AssertionError"
    )


def cuda_method(device: Any = None, keyword: bool = False) -> GradcliError:
    """`x.cuda()` / `module.cuda()` on the CPU build: PyTorch's AssertionError, or, given a
    device index (`.cuda(0)`), its RuntimeError. The device is parsed first, as PyTorch's
    argument parser does: another type (a dtype: `.cuda(torch.float64)`) is its TypeError, a
    device string it does not know its RuntimeError, a CPU device "must be cuda"."""
    if isinstance(device, int) and not isinstance(device, bool):
        return GradcliError(
            "Cannot access accelerator device when none is available.", hint=CUDA_HINT
        ).mirror("RuntimeError")
    if device is None:
        return no_accelerator()
    if isinstance(device, str):
        kind = device_arg(device)[0]
    elif type(device).__name__ == "Device":  # (the language's torch.device)
        kind = device.type
    else:
        from .callerrors import _display_type

        where = "" if keyword else " (position 1)"
        shown = _display_type(device)
        return GradcliError(
            f"cuda(): argument 'device'{where} must be torch.device, not {shown}",
            hint="x.cuda() moves to the GPU; a dtype goes to x.to(torch.float64) or x.double()",
        ).mirror("TypeError")
    if kind != "cuda":
        return GradcliError(
            "Invalid device, must be cuda device", hint="x.cuda() only moves to a CUDA device"
        ).mirror("RuntimeError")
    return no_accelerator()


def cpu_device(spec: str) -> None:
    """A device string (checked as `device_arg` checks it) that must name the CPU, the one
    device gradcli computes on. CUDA and XPU fail as in PyTorch without them (a catchable
    AssertionError); other devices are refused."""
    name = device_arg(spec)[0]
    if name in ("cuda", "xpu"):
        raise no_accelerator(name)
    if name == "meta":
        raise NotSupported(
            f"the '{spec}' device is not supported by gradcli here (meta tensors are made by "
            "device='meta', `with torch.device('meta'):` and `.to('meta')`)",
            hint="write `with torch.device('meta'):` around the code that makes the tensors, "
            "or give device='meta' to each",
        )
    if name != "cpu":
        raise GradcliError(
            f"gradcli runs on the CPU only, not on '{spec}'",
            hint="leave the device out, or write 'cpu'",
        )


def dtype_lookalike(spec: str) -> str | None:
    """What a device string that is not one says as a dtype (`"O"`: NumPy's object dtype,
    which PyTorch does not have; `"float64"`: a dtype's name given as a string), or None."""
    from ..core import dtypes

    if len(spec) > 40:
        return None
    try:
        dt = np.dtype(spec)
    except Exception:  # not a NumPy dtype either: nothing to say
        return None
    if dt in dtypes.TORCH_NAMES:
        return f"'{spec}', the name of a dtype ({dtypes.torch_name(dt)}) as a string"
    return f"'{spec}', NumPy's code for its dtype {str(dt)!r}, which PyTorch does not have"


def sized_pair(input: Any, target: Any) -> tuple[Tensor, Tensor]:  # noqa: A002 - PyTorch's name
    """The input and target of the losses whose Python code first compares `target.size()`
    with `input.size()` (mse_loss, l1_loss, smooth_l1_loss, huber_loss, binary_cross_entropy
    and its with_logits form): a number, list or None in either place is Python's
    AttributeError as PyTorch meets it (the target asked first), never a loss computed."""
    for v in (target, input):
        if isinstance(v, Tensor):
            continue
        if isinstance(v, np.ndarray):  # an array's `size` is its int element count
            raise GradcliError(
                "'int' object is not callable", hint="make it a tensor: torch.from_numpy(a)"
            ).mirror("TypeError")
        raise GradcliError(
            f"'{pytype_name(v)}' object has no attribute 'size'",
            hint="the loss takes tensors: write torch.tensor(...) for a number or a list",
        ).mirror("AttributeError")
    return input, target


def target_size_warning(input: Tensor, target: Tensor) -> None:  # noqa: A002
    """mse_loss, l1_loss, smooth_l1_loss and huber_loss broadcast a target of another size,
    with PyTorch's warning (Python's, shown once for each place and text)."""
    if input.shape != target.shape:
        hooks.warn(
            f"Using a target size (torch.Size({list(target.shape)})) that is different to the "
            f"input size (torch.Size({list(input.shape)})). This will likely lead to incorrect "
            "results due to broadcasting. Please ensure they have the same size.",
            "the loss compares every pair the broadcast makes: reshape the target (or squeeze "
            "the output) so both have the same size",
        )


def parsed_pair(input: Any, target: Any, fn: str) -> tuple[Tensor, Tensor]:  # noqa: A002
    """The input and target of a loss PyTorch's argument parser takes (kl_div,
    soft_margin_loss, hinge_embedding_loss, poisson_nll_loss): Tensors only, the input
    checked first, in the parser's words with the kernel's name. PyTorch's Python function
    passes both to the kernel by position, so the words keep the kernel's name and positions
    however the program called the loss (a module, a keyword, another name)."""
    for v, name, pos in ((input, "input", 1), (target, "target", 2)):
        if not isinstance(v, Tensor):
            raise kernel_type_error(fn, name, pos, v)
    return input, target


def not_differentiable(t: Any, fn: str, arg: str) -> None:
    """ATen's check of an argument that has no derivative formula (a loss's class weights, a
    soft-margin target): with grad mode on, a tensor there that requires grad is an error at
    the call, not a gradient silently left out."""
    from ..core.tensor import grad_enabled

    if isinstance(t, Tensor) and t.requires_grad and grad_enabled():
        raise GradcliError(
            f"The function '{fn}' is not differentiable with respect to argument '{arg}'. "
            "This input cannot have requires_grad True.",
            hint=f"detach it: {arg}.detach()",
        )


def int_list_keyword(fn: str, name: str, given: tuple, kwargs: dict) -> tuple:
    """The int list of `x.permute(...)` / `x.repeat(...)`: as positions, or as the one keyword
    PyTorch's parser names it (`dims=`, `repeats=`); anything else in its words."""
    if not kwargs:
        return given
    extra = [k for k in kwargs if k != name]
    if extra or given:
        raise GradcliError(
            f"{fn}() got an unexpected keyword argument '{extra[0]}'"
            if extra and given
            else f'{fn}() missing 1 required positional arguments: "{name}"'
            if extra
            else f"{fn}() got multiple values for argument '{name}'"
        ).mirror("TypeError")
    return (kwargs[name],)


def kernel_type_error(fn: str, param: str, position: int, v: Any) -> GradcliError:
    """The parser's TypeError of a kernel PyTorch's Python code calls (`torch.kl_div` inside
    `F.kl_div`): its name and position as they are, whatever the program's call looked like."""
    return GradcliError(
        f"{fn}(): argument '{param}' (position {position}) must be Tensor, not {pytype_name(v)}",
        hint="make it a tensor: torch.tensor(...)",
    ).mirror("TypeError")


def c_reduction(reduction: Any, name: str, position: int) -> str:
    """The C++ losses' int reduction (torch.kl_div(x, t, 2)): 1 mean, 2 sum, any other int
    none (0, the default; None is a wrong type, as in PyTorch); `name` and `position` word a
    wrong type as PyTorch's parser."""
    if not _int_like(reduction, bool_ok=False):  # (an int tensor of one element is an int)
        raise ArgumentTypeError(name, "reduction", position, "int", pytype_name(reduction))
    if isinstance(reduction, Tensor):
        reduction = reduction.data.reshape(()).item()
    if not -(2**63) <= int(reduction) < 2**63:
        raise GradcliError("Overflow when unpacking long long").mirror("ValueError")
    return {1: "mean", 2: "sum"}.get(int(reduction), "none")


def sizes_required(fn: Any, shown: str, name: str) -> Any:
    """The binding of a function of `*sizes` (`x.permute()`, `x.reshape()`, `x.new_zeros()`...)
    whose sizes PyTorch's parser requires: a program's call that gives none, positionally or as
    the keyword `name`, is its TypeError (even for a 0-d tensor), which `lang.calls` raises
    (`needs_sizes`); gradcli's own callers of the table's function pass empty sizes freely."""
    import functools

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    call.needs_sizes = (shown, name)  # type: ignore[attr-defined]
    return call
