"""Print tensors exactly the way PyTorch does.

A NumPy port of `torch/_tensor_str.py` (PyTorch 2.13), with its print options (`OPTIONS`, set by
`torch.set_printoptions`; by default precision 4, summarization above 1000 elements with 3 edge
items, line width 80, scientific notation chosen per tensor). The same
decisions are made in the same order -- which values take part in the width and in the choice of
scientific notation, when a float tensor prints in "integer mode" (``2.``), where lines wrap,
where ``...`` goes, and where the suffixes (``size=``, ``dtype=``, ``grad_fn=``,
``requires_grad=``) go -- so that `format_array` gives the same text as ``repr(torch_tensor)``.

A tensor's ``dtype=`` suffix follows PyTorch: every dtype but the default float dtype
(`get_default_dtype()`, which `tensor_repr` passes), int64 and bool gets one, and an empty
tensor of any dtype but the default float one (``tensor([], dtype=torch.int64)``). A bare
array printed without a default dtype prints float32 and float64 alike, unmarked.

The text of a tensor is checked against the output limit before it is made: a program that
asks for a precision of a billion digits, or for every element of a large tensor, is stopped
before the string is built. Only NumPy, the standard library and gradcli's limits are imported
here.
"""

from __future__ import annotations

import collections
import math
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import NotSupported
from ..core import dtypes, hooks
from ..core import tensor as _tensor_module
from ..core.sparse import SparseCOO, SparseCSR

__all__ = [
    "OPTIONS",
    "MaxMin",
    "Size",
    "format_array",
    "format_value",
    "reset_printoptions",
    "set_printoptions",
    "tensor_repr",
]

# PyTorch's default print options (torch._tensor_str.PRINT_OPTS).
PRECISION = 4
THRESHOLD = 1000
EDGEITEMS = 3
LINEWIDTH = 80


class PrintOptions:
    """The print options in force (`torch._tensor_str.PRINT_OPTS`)."""

    __slots__ = ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.precision: int = PRECISION
        self.threshold: float = THRESHOLD
        self.edgeitems: int = EDGEITEMS
        self.linewidth: int = LINEWIDTH
        self.sci_mode: bool | None = None


OPTIONS = PrintOptions()

# `set_printoptions(profile=...)`: (precision, threshold, edgeitems, linewidth).
_PROFILES = {
    "default": (4, 1000, 3, 80),
    "short": (2, 1000, 2, 80),
    "full": (4, math.inf, 3, 80),
}


def _option_int(v: Any, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise _option_error(f"set_printoptions(): {name} must be an integer, not {_type(v)}")
    return int(v)


def _type(v: Any) -> str:
    return "None" if v is None else type(v).__name__


def _option_error(message: str) -> Exception:
    from ..base.errors import GradcliError

    return GradcliError(
        message,
        hint="set_printoptions(precision=N, threshold=N, edgeitems=N, linewidth=N, "
        "sci_mode=True/False/None, profile='default'/'short'/'full')",
    ).mirror("TypeError")


def set_printoptions(
    precision: Any = None,
    threshold: Any = None,
    edgeitems: Any = None,
    linewidth: Any = None,
    profile: Any = None,
    sci_mode: Any = None,
) -> None:
    """`torch.set_printoptions`: as PyTorch, a profile first, then the options given; and
    `sci_mode` is set on every call (left out, it goes back to "chosen per tensor").

    PyTorch takes any value and fails when a tensor is printed; gradcli checks the values here
    (integers, `threshold` any number, `precision` and `edgeitems` not negative), so the error
    points at the call that set them. An unknown profile is ignored, as PyTorch ignores it."""
    vals: dict[str, Any] = {}
    if isinstance(precision, (float, str)) and not (
        isinstance(precision, str) and precision.strip().isdigit()
    ):
        # PyTorch takes it and fails when a float is printed with it ('{:.2.0f}' is not a
        # format): kept, for `_Formatter` to fail in Python's words (a string of digits, a
        # working format PyTorch would print with, stays refused here)
        vals["precision"] = precision if isinstance(precision, float) else precision[:100]
    elif precision is not None:
        vals["precision"] = _option_int(precision, "precision")
        if vals["precision"] < 0:
            raise _option_error(
                f"set_printoptions(): precision must not be negative, got {vals['precision']}"
            ).mirror("ValueError")
    if threshold is not None:
        if isinstance(threshold, bool) or not isinstance(
            threshold, (int, float, np.integer, np.floating)
        ):
            raise _option_error(
                f"set_printoptions(): threshold must be a number, not {_type(threshold)}"
            )
        if isinstance(threshold, float) and math.isnan(threshold):
            raise _option_error("set_printoptions(): threshold must not be NaN").mirror(
                "ValueError"
            )
        vals["threshold"] = threshold
    if edgeitems is not None:
        vals["edgeitems"] = _option_int(edgeitems, "edgeitems")
        if vals["edgeitems"] < 0:
            raise _option_error(
                f"set_printoptions(): edgeitems must not be negative, got {vals['edgeitems']}"
            ).mirror("ValueError")
    if linewidth is not None:
        vals["linewidth"] = _option_int(linewidth, "linewidth")
    if sci_mode is not None and not isinstance(sci_mode, (bool, np.bool_)):
        raise _option_error(
            f"set_printoptions(): sci_mode must be True, False or None, not {_type(sci_mode)}"
        )
    if isinstance(profile, str) and profile in _PROFILES:
        p, t, e, w = _PROFILES[profile]
        OPTIONS.precision, OPTIONS.threshold, OPTIONS.edgeitems, OPTIONS.linewidth = p, t, e, w
    for name, v in vals.items():
        setattr(OPTIONS, name, v)
    OPTIONS.sci_mode = None if sci_mode is None else bool(sci_mode)


def reset_printoptions() -> None:
    """PyTorch's defaults again (each program run starts with them)."""
    OPTIONS.reset()


# The length a text being made may have (`str(x)` of a program: a string value), innermost
# last; printing alone is bounded by what a program may print.
TEXT_CAPS: list[int] = []


def _check_text(chars: float, what: str = "the text of the printed tensor") -> None:
    """Refuse, before it is made, a tensor's text longer than a program may print, or than
    the string it is made for may be."""
    if TEXT_CAPS and chars > TEXT_CAPS[-1]:
        limits.STRING_CHARS.check(int(min(chars, 2**62)), "the length of the tensor's text")
    if chars > limits.OUTPUT_BYTES.value:
        limits.OUTPUT_BYTES.check(int(min(chars, 2**62)), what)


_PREFIX = "tensor("
_INT64 = np.dtype(np.int64)
_BOOL = np.dtype(np.bool_)

# NumPy dtypes that print without a "dtype=" suffix when the tensor is not empty.
_NO_SUFFIX_KINDS = {
    np.dtype(np.float32),
    np.dtype(np.float64),
    np.dtype(np.complex64),
    np.dtype(np.complex128),
    np.dtype(np.int64),
    np.dtype(np.bool_),
}
# ... and when it is empty (PyTorch marks every empty tensor not of the default float dtype).
_NO_SUFFIX_EMPTY = {
    np.dtype(np.float32),
    np.dtype(np.float64),
    np.dtype(np.complex64),
    np.dtype(np.complex128),
}
_TORCH_DTYPE_NAMES = {
    "bool": "torch.bool",
    "int8": "torch.int8",
    "int16": "torch.int16",
    "int32": "torch.int32",
    "int64": "torch.int64",
    "uint8": "torch.uint8",
    "uint16": "torch.uint16",
    "uint32": "torch.uint32",
    "uint64": "torch.uint64",
    "float16": "torch.float16",
    "float32": "torch.float32",
    "float64": "torch.float64",
    "complex64": "torch.complex64",
    "complex128": "torch.complex128",
}


class Size(tuple):
    """A shape that prints like ``torch.Size([2, 3])``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(int(d)) for d in self)}])"

    __str__ = __repr__


class MaxMin(tuple):
    """The ``(values, indices)`` result of ``max(dim)``/``min(dim)`` (``torch.return_types``).

    Unpacks like a 2-tuple; ``kind`` names the operation ("max", "min", "sort", ...).
    """

    # The names of the two fields (`aminmax` has `min` and `max`).
    fields: tuple[str, str] = ("values", "indices")

    def __new__(cls, values: Any, indices: Any, kind: str = "max") -> MaxMin:
        self = super().__new__(cls, (values, indices))
        self.kind = kind
        return self

    def __getnewargs__(self) -> tuple:
        return (self[0], self[1], self.kind)

    @property
    def values(self) -> Any:
        return self[0]

    @property
    def indices(self) -> Any:
        return self[1]

    def __repr__(self) -> str:
        return format_value(self)

    __str__ = __repr__

    def program_typename(self) -> str:
        return f"torch.return_types.{self.kind}"


class GradientEdge(tuple):
    """torch.autograd.graph.GradientEdge: the named tuple `(node, output_nr, ownership_token)`
    of `get_gradient_edge(t)` (t's grad_fn, or its AccumulateGrad for a leaf; the token None).
    It keeps the tensor and the node t had then (`tensor`, `held`: not the program's), which
    autograd.grad and backward take it for while t's node is still that node."""

    fields = ("node", "output_nr", "ownership_token")

    def __new__(cls, node: Any, output_nr: int, tensor: Any = None, held: Any = None) -> Any:
        self = super().__new__(cls, (node, output_nr, None))
        self.tensor = tensor
        self.held = held
        return self

    def __getnewargs__(self) -> tuple:
        return (self[0], self[1], self.tensor, self.held)

    def __repr__(self) -> str:
        return format_value(self)

    __str__ = __repr__

    def program_typename(self) -> str:
        return "GradientEdge"


# --- the formatter -----------------------------------------------------------------------------


class _Formatter:
    """`torch._tensor_str._Formatter` for one real-valued (float, int or bool) array."""

    def __init__(self, arr: np.ndarray) -> None:
        self.floating_dtype = arr.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1

        flat = arr.reshape(-1)
        if not self.floating_dtype:
            for value in _extremes(flat):
                self.max_width = max(self.max_width, len(f"{value}"))
            return

        vals = flat[np.isfinite(flat) & (flat != 0)]
        if vals.size == 0:
            return  # no valid number: integer mode, width 1

        finite_abs = np.abs(vals).astype(np.float64)
        nz_min = finite_abs.min()
        nz_max = finite_abs.max()
        self.int_mode = bool(np.all(vals == np.ceil(vals)))
        with np.errstate(over="ignore"):
            ratio = nz_max / nz_min
        if OPTIONS.sci_mode is None:
            self.sci_mode = bool(ratio > 1000.0 or nz_max > 1.0e8 or nz_min < 1.0e-4)
        else:
            self.sci_mode = OPTIONS.sci_mode
        precision = OPTIONS.precision
        if (self.sci_mode or not self.int_mode) and type(precision) is not int:
            _bad_precision(precision, "e" if self.sci_mode else "f")
        if self.sci_mode or not self.int_mode:
            _check_text(precision + 3)  # one number, before a string of `precision` digits

        # Python floats: exact, and formatted like torch's .item(). The longest text of a
        # number is that of one of the extremes (see `_extremes`).
        values = _extremes(vals)
        if self.sci_mode:
            spec = f".{precision}e"
            width = max(len(format(v, spec)) for v in values)
        elif self.int_mode:
            width = max(len(f"{v:.0f}") for v in values) + 1
        else:
            spec = f".{precision}f"
            width = max(len(format(v, spec)) for v in values)
        self.max_width = max(self.max_width, width)

    def width(self) -> int:
        return self.max_width

    def format(self, value: Any) -> str:
        if self.floating_dtype:
            if self.sci_mode:
                ret = format(value, f"{self.max_width}.{OPTIONS.precision}e")
            elif self.int_mode:
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = format(value, f".{OPTIONS.precision}f")
        else:
            ret = f"{value}"
        return (self.max_width - len(ret)) * " " + ret


def _bad_precision(precision: Any, kind: str) -> None:
    """`set_printoptions(precision=2.0)` (or a string) meets a float to print: the error
    Python's format gives PyTorch's `'{:.2.0f}'` (the spec is never one that formats: see
    `set_printoptions`)."""
    from ..base.errors import GradcliError

    spec = f".{precision}{kind}"
    try:
        format(1.0, spec)
    except ValueError as e:
        raise GradcliError(str(e)).mirror("ValueError") from None
    raise GradcliError(f"Invalid format specifier '{spec}' for object of type 'float'").mirror(
        "ValueError"
    )


def _extremes(vals: np.ndarray) -> list[Any]:
    """The values whose text is the longest of `vals`'s, as Python numbers: the largest and
    smallest of each sign. The length of a number's text (fixed or scientific notation, or an
    integer's) does not decrease with its magnitude, except where the exponent's digits grow
    as the magnitude shrinks (1e-100), which the smallest magnitudes cover; the sign adds one.
    So the width of a column is found in O(1) Python calls, not one per element."""
    if vals.size <= 8:
        return vals.tolist()
    if vals.dtype.kind == "b":
        return [bool(vals.max()), bool(vals.min())]
    out = []
    pos = vals[vals > 0]
    neg = vals[vals < 0]
    for part in (pos, neg):
        if part.size:
            out += [part.max().item(), part.min().item()]
    if vals.size > pos.size + neg.size:
        out.append(vals.dtype.type(0).item())
    return out


def _complex_str(val: complex, f1: _Formatter, f2: _Formatter) -> str:
    real_str = f1.format(val.real)
    imag_str = (f2.format(val.imag) + "j").lstrip()
    # handles negative numbers, +0.0, -0.0
    if imag_str[0] == "+" or imag_str[0] == "-":
        return real_str + imag_str
    return real_str + "+" + imag_str


def _scalar_str(arr: np.ndarray, f1: _Formatter, f2: _Formatter | None) -> str:
    value = arr.item()
    if f2 is not None:
        return _complex_str(complex(value), f1, f2)
    return f1.format(value)


def _vector_str(
    arr: np.ndarray, indent: int, summarize: bool, f1: _Formatter, f2: _Formatter | None
) -> str:
    # length includes spaces and comma between elements
    element_length = f1.width() + 2
    if f2 is not None:
        # width for the imaginary formatter + an extra j for complex
        element_length += f2.width() + 1
    elements_per_line = max(1, math.floor((OPTIONS.linewidth - indent) / element_length))

    if f2 is not None:

        def fmt(val: Any) -> str:
            return _complex_str(val, f1, f2)

    else:
        fmt = f1.format

    edge = OPTIONS.edgeitems
    if summarize and not edge:
        data = ["..."]
    elif summarize and arr.shape[0] > 2 * edge:
        data = (
            [fmt(v) for v in arr[:edge].tolist()]
            + [" ..."]
            + [fmt(v) for v in arr[-edge:].tolist()]
        )
    else:
        data = _formatted(arr.tolist(), fmt)

    lines = [
        ", ".join(data[i : i + elements_per_line]) for i in range(0, len(data), elements_per_line)
    ]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _formatted(values: list[Any], fmt: Callable[[Any], str]) -> list[str]:
    """Each number's text, the clock checked every few thousand numbers (a vector of
    millions, printed in full, is seconds of Python)."""
    out: list[str] = []
    for i in range(0, len(values), 4096):
        limits.BUDGET.check_clock()
        out.extend(fmt(v) for v in values[i : i + 4096])
    return out


def _text_length(shape: tuple[int, ...], indent: int, summarize: bool, width: int) -> int:
    """The length of the text `_tensor_str_with_formatter` makes for a tensor of `shape`
    whose numbers are each `width` characters, without making it: the numbers, the ", "
    between them, the line breaks and indentation of every row (one number a line when the
    line is narrow) and the blank lines between the blocks of a many-dimensional tensor."""
    edge = OPTIONS.edgeitems
    if len(shape) == 1:
        m = shape[0]
        if summarize and not edge:
            items = [3]
        elif summarize and m > 2 * edge:
            items = [width] * (2 * edge) + [4]
        else:
            items = [width] * m
        k = len(items)
        per_line = max(1, math.floor((OPTIONS.linewidth - indent) / (width + 2)))
        lines = -(-k // per_line)
        return 2 + sum(items) + 2 * (k - lines) + (lines - 1) * (indent + 3)
    if not shape:
        return width
    n = shape[0]
    sub = _text_length(shape[1:], indent + 1, summarize, width)
    if summarize and n > 2 * edge:  # the first and last `edge` blocks, and "..."
        count, subs = 2 * edge + 1, sub * 2 * edge + 3
    else:
        count, subs = n, sub * n
    # between two blocks: "," then a newline for each dimension below, then the indentation
    return 2 + subs + (count - 1) * (len(shape) + indent + 1)


def _tensor_str_with_formatter(
    arr: np.ndarray, indent: int, summarize: bool, f1: _Formatter, f2: _Formatter | None
) -> str:
    dim = arr.ndim
    if dim == 0:
        return _scalar_str(arr, f1, f2)
    if dim == 1:
        return _vector_str(arr, indent, summarize, f1, f2)

    n = arr.shape[0]
    edge = OPTIONS.edgeitems
    if summarize and n > 2 * edge:
        slices = (
            [_tensor_str_with_formatter(arr[i], indent + 1, summarize, f1, f2) for i in range(edge)]
            + ["..."]
            + [
                _tensor_str_with_formatter(arr[i], indent + 1, summarize, f1, f2)
                for i in range(n - edge, n)
            ]
        )
    else:
        slices = [
            _tensor_str_with_formatter(arr[i], indent + 1, summarize, f1, f2) for i in range(n)
        ]
    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices) + "]"


def _summarized_data(arr: np.ndarray) -> np.ndarray:
    """The elements a summarized print shows (`get_summarized_data`): edge items of every axis.
    With no edge items, PyTorch's takes no element of a tensor of 2 or more dimensions, and
    every element of a vector (`x[:0]` and `x[-0:]`, the whole)."""
    edge = OPTIONS.edgeitems
    if arr.ndim == 0 or (arr.ndim == 1 and not edge):
        return arr
    if not edge:
        return arr[(slice(0, 0),) * arr.ndim]
    for axis, size in enumerate(arr.shape):
        if size > 2 * edge:
            keep = np.r_[0:edge, size - edge : size]
            arr = np.take(arr, keep, axis=axis)
    return arr


def _shown_count(shape: tuple[int, ...], summarize: bool) -> int:
    """How many numbers the text of a tensor of `shape` holds."""
    edge = OPTIONS.edgeitems
    count = 1
    for size in shape:
        count *= min(size, 2 * edge) if summarize and size > 2 * edge else size
    return count


def _tensor_str(arr: np.ndarray, indent: int) -> str:
    if arr.size == 0:
        return "[]"
    summarize = arr.size > OPTIONS.threshold
    shown = _summarized_data(arr) if summarize else arr
    if arr.dtype.kind == "c":
        f1 = _Formatter(np.ascontiguousarray(shown.real))
        f2 = _Formatter(np.ascontiguousarray(shown.imag))
        _check_text(_shown_count(arr.shape, summarize) * (f1.width() + f2.width() + 3))
        return _tensor_str_with_formatter(arr, indent, summarize, f1, f2)
    f1 = _Formatter(shown)
    # Every number is padded to the formatter's width: the text's length is known exactly.
    _check_text(_text_length(arr.shape, indent, summarize, f1.width()))
    return _tensor_str_with_formatter(arr, indent, summarize, f1, None)


def _add_suffixes(tensor_str: str, suffixes: list[str], indent: int) -> str:
    tensor_strs = [tensor_str]
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        suffix_len = len(suffix)
        if last_line_len + suffix_len + 2 > OPTIONS.linewidth:
            tensor_strs.append(",\n" + " " * indent + suffix)
            last_line_len = indent + suffix_len
        else:
            tensor_strs.append(", " + suffix)
            last_line_len += suffix_len + 2
    tensor_strs.append(")")
    return "".join(tensor_strs)


def _auto_dtype_suffix(arr: np.ndarray, default_dtype: np.dtype | None) -> str | None:
    if default_dtype is None:
        keep_quiet = _NO_SUFFIX_EMPTY if arr.size == 0 else _NO_SUFFIX_KINDS
    elif arr.size == 0:
        # PyTorch marks an empty tensor of any dtype but the default one.
        keep_quiet = {np.dtype(default_dtype)}
    else:
        # (and the default's complex: complex64 with float32, complex128 with float64)
        default_complex = np.dtype(np.complex128 if default_dtype == np.float64 else np.complex64)
        keep_quiet = {np.dtype(default_dtype), default_complex, _INT64, _BOOL}
    if arr.dtype in keep_quiet:
        return None
    if arr.dtype == dtypes.BF16:  # (float32 to NumPy)
        return "torch.bfloat16"
    return _TORCH_DTYPE_NAMES.get(arr.dtype.name, f"torch.{arr.dtype.name}")


# --- public API --------------------------------------------------------------------------------


def format_array(
    data: np.ndarray,
    *,
    grad_fn: str | None = None,
    requires_grad: bool = False,
    dtype_suffix: str | None = None,
    default_dtype: np.dtype | None = None,
    tangent: str | None = None,
) -> str:
    """``repr()`` of a PyTorch tensor holding `data`.

    `grad_fn` is the backward node's name ("MulBackward0"); when it is None, `requires_grad`
    adds ``requires_grad=True``. `dtype_suffix` ("torch.float64") is printed as
    ``dtype=torch.float64`` where PyTorch puts it; when None, the suffix PyTorch would print is
    used: the dtypes other than `default_dtype` (PyTorch's `get_default_dtype()`), int64 and
    bool get one; without `default_dtype`, float32 and float64 both print like the default.
    `tangent` is the text of a dual tensor's tangent (``tangent=...``, the last suffix).
    """
    arr = np.asarray(data)
    if arr.dtype.kind not in "biufc":
        raise TypeError(f"cannot print an array of dtype {arr.dtype} as a tensor")
    if dtype_suffix is None:
        dtype_suffix = _auto_dtype_suffix(arr, default_dtype)
    elif dtype_suffix.startswith("dtype="):
        dtype_suffix = dtype_suffix[len("dtype=") :]

    indent = len(_PREFIX)
    suffixes: list[str] = []
    if arr.size == 0:
        # Explicitly print the shape if it is not (0,), to match NumPy behavior
        if arr.ndim != 1:
            suffixes.append("size=" + str(tuple(int(d) for d in arr.shape)))
        tensor_str = "[]"
    else:
        if not OPTIONS.edgeitems:
            # PyTorch prints the shape of every tensor when no edge items are shown.
            suffixes.append("size=" + str(tuple(int(d) for d in arr.shape)))
        tensor_str = _tensor_str(arr, indent)
    if dtype_suffix:
        suffixes.append("dtype=" + dtype_suffix)

    if grad_fn is not None:
        name = grad_fn[1:-1] if grad_fn.startswith("<") and grad_fn.endswith(">") else grad_fn
        suffixes.append(f"grad_fn=<{name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    if tangent is not None:
        suffixes.append("tangent=" + tangent)

    return _add_suffixes(_PREFIX + tensor_str, suffixes, indent)


# The arrays torch.empty and its kin made, while they live (`core.tensor.UNWRITTEN`): a print
# of one before anything was written to it is said (`tensor_repr`), never a silent difference.
UNWRITTEN = _tensor_module.UNWRITTEN


def unwritten(t: Any) -> bool:
    """Whether `t` holds the memory of a torch.empty that nothing was written to yet."""
    a = t.data
    # (a write through `.data` or `.detach()` leaves this tensor's version counter as it was:
    # the values tell, since gradcli's empty memory is zeros)
    return UNWRITTEN.get(id(a)) is a and (t._vc is None or t._vc[0] == 0) and not a.any()


# Set by `surface.func` (which builds on this module): the functorch level a tensor printed
# inside torch.func.grad / vjp / jacrev is wrapped at, or None.
TRACKED: list[Callable[[Any], int | None]] = [lambda t: None]
# ... and the tensor whose text PyTorch shows inside the wrapper where it is not the bare value
# (an input that requires grad outside the transform, a value computed from one: with its
# grad_fn), or None. Set by `surface.func` too.
TRACKED_INNER: list[Callable[[Any], Any]] = [lambda t: None]
# ... and all the levels of the wrappers, innermost last (nested transforms: `grad(grad(f))`).
TRACKED_LEVELS: list[Callable[[Any], list[int]]] = [lambda t: []]
_UNWRAPPED = [False]  # (while the text inside a wrapper is made)


def tensor_repr(t: Any) -> str:
    """``repr()`` of a gradcli Tensor, as PyTorch prints the same tensor."""
    from ..core.tensor import (
        META,
        NOGRAD_VIEWS,
        Settings,
        _GradMode,
        batched,
        nograd_view_changed,
    )

    if (
        _GradMode.transforms
        and not _UNWRAPPED[0]
        and not (_GradMode.vmapped and batched(t))  # (a BatchedTensor: refused below)
    ):
        levels = TRACKED_LEVELS[0](t)
        if levels:
            from ..core.tensor import Tensor

            shown = TRACKED_INNER[0](t)
            if shown is None:
                shown = Tensor(t.data)  # (the value, without its grad nor its level)
                shown._inf = False
            _UNWRAPPED[0] = True
            try:
                text = tensor_repr(shown)
            finally:
                _UNWRAPPED[0] = False
            for level in levels:  # the innermost level's wrapper outermost
                body = "\n".join("    " + line for line in text.split("\n"))
                text = f"GradTrackingTensor(lvl={level}, value=\n{body}\n)"
            return text

    if _GradMode.vmapped and batched(t):
        raise NotSupported(
            "printing a tensor that vmap maps over is not supported: PyTorch runs the function "
            "once and prints a BatchedTensor holding the whole batch; gradcli runs it once per "
            "batch element",
            hint="print the result of vmap outside the function, or print the element's .shape",
        )

    if type(t).__name__ in ("UninitializedParameter", "UninitializedBuffer"):
        return f"<{type(t).__name__}>"  # a lazy module's, before its first call

    meta = bool(META) and t in META
    if UNWRITTEN and unwritten(t) and not meta:
        hooks.warn(
            "printing a tensor made by torch.empty (or torch.Tensor(sizes)) before anything "
            "was written to it: PyTorch prints whatever its memory held there; gradcli's "
            "values are zeros",
            "write its elements first (an nn.init function, fill_, uniform_...), or use "
            "torch.zeros",
            once=True,
        )

    if getattr(t, "_base", None) is not None:
        from ..core.op import current

        current(t)  # a view of a tensor changed since prints its regenerated node (PyTorch)
    node = getattr(t, "node", None)
    if node is not None:
        from ..core.op import COMPILED

        if COMPILED:
            node = COMPILED.get(node, (node,))[0]  # a compiled call's output
    invalid = bool(NOGRAD_VIEWS) and t in NOGRAD_VIEWS and nograd_view_changed(t)
    tangent = None
    if _GradMode.dual:  # a dual tensor prints its tangent as PyTorch's f"{tangent}"
        from ..core.dual import tangent as tangent_of

        d = tangent_of(t)
        if d is not None:
            tangent = str(d.data.item()) if d.ndim == 0 else tensor_repr(d)
    # nn.Parameter prints as PyTorch's: a header line, then the tensor.
    head = "Parameter containing:\n" if type(t).__name__ == "Parameter" else ""
    if meta:
        return head + meta_repr(t, node, invalid)
    return head + format_array(
        np.asarray(t.data),
        # PyTorch's C++ nodes print without their namespace: grad_fn=<CopySlices>.
        grad_fn="Invalid"
        if invalid
        else None
        if node is None
        else str(node.name()).removeprefix("torch::autograd::"),
        requires_grad=bool(getattr(t, "requires_grad", False)),
        default_dtype=Settings.default_dtype,
        tangent=tangent,
    )


def meta_repr(t: Any, node: Any, invalid: bool) -> str:
    """A meta tensor as PyTorch prints one: no values, its device and size, its dtype unless
    the default one, its grad_fn or requires_grad."""
    from ..core import dtypes
    from ..core.tensor import Settings

    suffixes = ["device='meta'", f"size={tuple(int(n) for n in t.shape)}"]
    if t.dtype != Settings.default_dtype:
        suffixes.append(f"dtype={dtypes.torch_name(t.dtype)}")
    if invalid:
        suffixes.append("grad_fn=<Invalid>")
    elif node is not None:
        suffixes.append(f"grad_fn=<{str(node.name()).removeprefix('torch::autograd::')}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes("tensor(...", suffixes, len("tensor("))


def sparse_repr(s: Any) -> str:
    """``repr()`` of a sparse COO tensor (`core.sparse.SparseCOO`), as PyTorch prints one:
    its indices and values as tensors under their own prefixes, then its size, its number of
    entries, its dtype when not the default one and its layout, each suffix on its own line
    when the line would pass the width."""
    from ..core.tensor import Settings

    indent = len(_PREFIX)
    parts = []
    for name, arr in (("indices", s.indices), ("values", s.values)):
        prefix = f"{name}=tensor("
        text = _tensor_str(arr, indent + len(prefix))
        if arr.size == 0:
            text += ", size=" + str(tuple(int(d) for d in arr.shape))
        parts.append(prefix + text + ")")
    suffixes = [f"size={tuple(s.shape)}", f"nnz={s.nnz}"]
    default = np.dtype(Settings.default_dtype)
    if s.dtype not in (default, _INT64, _BOOL):
        suffixes.append("dtype=" + _TORCH_DTYPE_NAMES.get(s.dtype.name, f"torch.{s.dtype.name}"))
    suffixes.append("layout=torch.sparse_coo")
    if s.requires_grad:
        suffixes.append("requires_grad=True")
    out = [_PREFIX + parts[0] + ",\n" + " " * indent + parts[1]]
    width = 0
    for i, suffix in enumerate(suffixes):
        if i == 0 or width + len(suffix) + 2 > OPTIONS.linewidth:  # (the first: a new line)
            out.append(",\n" + " " * indent + suffix)
            width = indent + len(suffix)
        else:
            out.append(", " + suffix)
            width += len(suffix) + 2
    return "".join(out) + ")"


def csr_repr(s: Any) -> str:
    """``repr()`` of a sparse CSR matrix (`core.sparse.SparseCSR`), as PyTorch prints one: its
    row offsets, column indices and values as tensors under their own prefixes, then its
    size, number of entries, dtype when not the default one and layout, wrapped as the COO's
    suffixes are."""
    from ..core.tensor import Settings

    indent = len(_PREFIX)
    parts = []
    for name, arr in (("crow_indices", s.crow), ("col_indices", s.col), ("values", s.values)):
        prefix = f"{name}=tensor("
        text = _tensor_str(arr, indent + len(prefix))
        if arr.size == 0:
            text += ", size=" + str(tuple(int(d) for d in arr.shape))
        parts.append(prefix + text + ")")
    suffixes = [f"size={tuple(s.shape)}", f"nnz={s.nnz}"]
    default = np.dtype(Settings.default_dtype)
    if s.dtype not in (default, _INT64, _BOOL):
        suffixes.append("dtype=" + _TORCH_DTYPE_NAMES.get(s.dtype.name, f"torch.{s.dtype.name}"))
    suffixes.append("layout=torch.sparse_csr")
    out = [_PREFIX + parts[0] + ",\n" + " " * indent + parts[1] + ",\n" + " " * indent + parts[2]]
    last = parts[2].split("\n")
    # (PyTorch's _add_suffixes counts the last line two characters longer than it is)
    width = (indent if len(last) == 1 else 0) + len(last[-1]) + 2
    for suffix in suffixes:
        if width + len(suffix) + 2 > OPTIONS.linewidth:
            out.append(",\n" + " " * indent + suffix)
            width = indent + len(suffix)
        else:
            out.append(", " + suffix)
            width += len(suffix) + 2
    return "".join(out) + ")"


def _is_tensor(v: Any) -> bool:
    return (
        not isinstance(v, np.ndarray)
        and isinstance(getattr(v, "data", None), np.ndarray)
        and hasattr(v, "requires_grad")
        and hasattr(v, "node")
    )


def _is_return_type(v: Any) -> bool:
    if isinstance(v, MaxMin):
        return True
    return (
        isinstance(getattr(v, "kind", None), str)
        and hasattr(v, "values")
        and hasattr(v, "indices")
        and not callable(v.values)
    )


def _repr(v: Any) -> str:
    """What Python's ``repr()`` gives for `v`, tensors printed like PyTorch."""
    if _is_tensor(v):
        return tensor_repr(v)
    if type(v) is SparseCOO:
        return sparse_repr(v)
    if type(v) is SparseCSR:
        return csr_repr(v)
    if isinstance(v, np.ndarray):
        return format_array(v)
    if isinstance(v, np.generic):
        return repr(v.item())
    if isinstance(v, Size):
        return repr(v)
    if isinstance(v, GradientEdge):
        return f"GradientEdge(node={_repr(v[0])}, output_nr={v[1]}, ownership_token=None)"
    if _is_return_type(v):
        first, second = getattr(v, "fields", ("values", "indices"))
        return f"torch.return_types.{v.kind}(\n{first}={_repr(v[0])},\n{second}={_repr(v[1])})"
    if isinstance(v, tuple) and type(v) is tuple:
        if len(v) == 1:
            return "(" + _repr(v[0]) + ",)"
        return "(" + ", ".join(_repr(x) for x in v) + ")"
    if isinstance(v, list) and type(v) is list:
        return "[" + ", ".join(_repr(x) for x in v) + "]"
    if isinstance(v, dict) and type(v) is dict:
        return "{" + ", ".join(f"{_repr(k)}: {_repr(x)}" for k, x in v.items()) + "}"
    if type(v) is collections.OrderedDict:
        if not v:
            return "OrderedDict()"
        if sys.version_info >= (3, 12):  # the Python running the program decides, as Python's
            return (
                "OrderedDict({" + ", ".join(f"{_repr(k)}: {_repr(x)}" for k, x in v.items()) + "})"
            )
        return "OrderedDict([" + ", ".join(f"({_repr(k)}, {_repr(x)})" for k, x in v.items()) + "])"
    return repr(v)


def format_value(v: Any) -> str:
    """What Python's ``print(v)`` shows, tensors (also inside tuples/lists) printed like PyTorch.

    Tensors and NumPy arrays print as tensors, `Size` as ``torch.Size([...])``, `MaxMin` (or
    anything with ``.values``, ``.indices`` and a string ``.kind``) as
    ``torch.return_types.max(...)``; other values as ``print()`` shows them.
    """
    if isinstance(v, str):
        return v
    if isinstance(v, np.generic):
        return str(v.item())
    return _repr(v)
