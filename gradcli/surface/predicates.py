"""PyTorch's predicates and tests on tensors: `isclose`, `allclose`, `equal`, `is_tensor`,
`numel`, `is_floating_point`, `isnan`, `isinf`, `isfinite`; and a tensor's layout as gradcli
holds it: `is_contiguous`, `contiguous`, `stride`, `storage_offset`.

None of these records anything: their results are booleans (Python's or a bool tensor) or
integers, outside every graph, as in PyTorch. The arithmetic of `isclose` is ATen's, in the
dtype ATen computes it in (float32 stays float32), so a borderline comparison answers as
PyTorch answers it.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core import tensor as core_tensor
from ..core.dtypes import BF16, round_bf16, scalar_type_name
from ..core.layout import (
    contiguous_strides,
    format_contiguous,
    in_format,
    iterated,
    like,
    row_major,
    torch_strides,
)
from ..core.layout import (
    is_contiguous as layout_contiguous,
)
from ..core.op import apply, operand_arrays
from ..core.tensor import (
    VMAP_STORAGE,
    Settings,
    Tensor,
    _GradMode,
    batched,
    own,
    storage_elements,
    typename,
)
from ..ops import shape as S
from ..ops.arithmetic import broadcast_shape, tensor_arg
from .args import int_arg, int_list, memory_format_arg
from .declare import declare
from .functional import clone, reshape


def _tensor(v: Any, fn: str, arg: str, pos: int) -> Tensor:
    """`v` when it is a tensor; else PyTorch's argument-parser TypeError."""
    if isinstance(v, Tensor):
        return v
    raise GradcliError(
        f"{fn}(): argument '{arg}' (position {pos}) must be Tensor, not {typename(v)}",
        hint="make it a tensor first: torch.tensor(...)",
    ).mirror("TypeError")


def _float(v: Any, fn: str, arg: str) -> float:
    """A Python number (bool and int included) as the double PyTorch's parser makes of it."""
    if isinstance(v, Tensor) and v.data.size == 1 and v.ndim == 0:
        return float(v.data)
    if isinstance(v, (bool, int, float, np.integer, np.floating)):
        return float(v)
    raise GradcliError(f"{fn}(): argument '{arg}' must be float, not {typename(v)}").mirror(
        "TypeError"
    )


def _c_double(v: float) -> str:
    """A double as C++'s `operator<<` writes it (6 significant digits, as %g)."""
    return format(v, "g")


def isclose(
    input: Any,  # noqa: A002 - PyTorch's argument names
    other: Any,
    rtol: Any = 1e-05,
    atol: Any = 1e-08,
    equal_nan: bool = False,
) -> Tensor:
    """`torch.isclose`: |input - other| <= atol + |rtol * other| elementwise (a bool tensor)."""
    close = _close(input, other, rtol, atol, equal_nan, "isclose")
    # laid out as ATen's first step, input == other
    return Tensor(iterated(close, operand_arrays(input, other)))


def _close(input: Any, other: Any, rtol: Any, atol: Any, equal_nan: Any, fn: str) -> np.ndarray:  # noqa: A002
    a = _tensor(input, fn, "input", 1)
    b = _tensor(other, fn, "other", 2)
    rt, at = _float(rtol, fn, "rtol"), _float(atol, fn, "atol")
    if a.dtype != b.dtype:
        raise GradcliError(
            f"{scalar_type_name(a.dtype)} did not match {scalar_type_name(b.dtype)}",
            hint="compare tensors of one dtype: convert one with .to(other.dtype)",
        )
    if not rt >= 0:
        raise GradcliError(f"rtol must be greater than or equal to zero, but got {_c_double(rt)}")
    if not at >= 0:
        raise GradcliError(f"atol must be greater than or equal to zero, but got {_c_double(at)}")
    shape = broadcast_shape(a, b)  # PyTorch's error for shapes that do not broadcast
    x, y = a.data, b.data
    with np.errstate(all="ignore"):
        close = np.broadcast_to(x == y, shape).copy()
        if equal_nan and a.dtype.kind in "fc":
            close |= np.isnan(x) & np.isnan(y)
        if rt == 0 and at == 0:
            return close
        # ATen: a bool `input` and an integer `other` are compared in the default float dtype;
        # an integer `input` minus the float `other` gives that float dtype too.
        if a.dtype.kind in "fc":
            ct = a.dtype  # (complex: |x - y| <= atol + |rtol * y|, the moduli real)
            xs, ys = x, y
        else:
            ct = np.dtype(Settings.default_dtype)
            xs = x.astype(ct) if a.dtype.kind == "b" else x
            ys = y.astype(ct)
        if ct == BF16:
            # ATen's atol + (rtol * other).abs() and (self - other).abs(), each rounded to
            # bfloat16 (rtol taken as a float by mul, atol as a bfloat16 by add)
            f32 = np.float32
            scaled = np.abs(round_bf16(f32(rt) * ys.astype(f32)).astype(f32))
            allowed = round_bf16(round_bf16(at).astype(f32) + scaled)
            actual = np.abs(round_bf16(xs.astype(f32) - ys.astype(f32)))
            close |= np.isfinite(actual) & (actual <= allowed)
            return close
        # A Python double in an op with a float tensor is used in the tensor's dtype.
        rdt = ct if ct.kind != "c" else np.dtype(np.float64 if ct == np.complex128 else np.float32)
        allowed = rdt.type(at) + np.abs(ct.type(rt) * ys)
        actual = np.abs(np.subtract(xs, ys, dtype=ct))
        close |= np.isfinite(actual) & (actual <= allowed)
    return close


def allclose(
    input: Any,  # noqa: A002
    other: Any,
    rtol: Any = 1e-05,
    atol: Any = 1e-08,
    equal_nan: bool = False,
) -> bool:
    """`torch.allclose`: whether every element of `isclose` is True (a Python bool)."""
    return bool(np.all(_close(input, other, rtol, atol, equal_nan, "allclose")))


def equal(input: Any, other: Any) -> bool:  # noqa: A002
    """`torch.equal`: the same shape and the same values (NaN equals nothing; dtypes may
    differ: values are compared after promotion)."""
    a = _tensor(input, "equal", "input", 1)
    b = _tensor(other, "equal", "other", 2)
    if a.shape != b.shape:
        return False
    with np.errstate(all="ignore"):
        return bool(np.array_equal(a.data, b.data))


def is_tensor(obj: Any) -> bool:
    """`torch.is_tensor`: whether `obj` is a tensor (an nn.Parameter is one)."""
    return isinstance(obj, Tensor)


def numel(input: Any) -> int:  # noqa: A002
    return int(_tensor(input, "numel", "input", 1).data.size)


def is_floating_point(input: Any) -> bool:  # noqa: A002
    return _tensor(input, "is_floating_point", "input", 1).dtype.kind == "f"


def is_complex(input: Any) -> bool:  # noqa: A002
    return _tensor(input, "is_complex", "input", 1).dtype.kind == "c"


def is_signed(input: Any) -> bool:  # noqa: A002
    return _tensor(input, "is_signed", "input", 1).dtype.kind not in "ub"


def is_conj(input: Any) -> bool:  # noqa: A002
    """`x.is_conj()`: whether x is a conjugate view (`x.conj()` of a complex tensor)."""
    return core_tensor.is_conj(_tensor(input, "is_conj", "input", 1))


def is_neg(input: Any) -> bool:  # noqa: A002
    """`x.is_neg()`: whether x is a negative view (the imaginary parts of a conjugate view)."""
    return core_tensor.is_neg(_tensor(input, "is_neg", "input", 1))


def _elementwise_test(name: str, test: Any) -> Any:
    def fn(input: Any) -> Tensor:  # noqa: A002
        x = _tensor(input, name, "input", 1)
        if x.dtype.kind != "f":
            # Integers and booleans are always finite, never NaN nor infinite.
            return Tensor(like(np.full(x.shape, name == "isfinite"), x.data))
        return Tensor(iterated(np.asarray(test(x.data)), (x.data,)))

    fn.__name__ = name
    return fn


isnan = _elementwise_test("isnan", np.isnan)
isinf = _elementwise_test("isinf", np.isinf)
isfinite = _elementwise_test("isfinite", np.isfinite)


# --- layout ------------------------------------------------------------------------------------
# A gradcli tensor is a NumPy array, and the ops that make views in PyTorch (view, reshape of a
# contiguous tensor, t, transpose, permute, expand, basic indexing, unsqueeze...) make NumPy
# views with the same layout, so the strides of the array are the tensor's. Where an op copies,
# gradcli's result is laid out as PyTorch's (`core.layout`: row-major, an elementwise result
# after its inputs, a clone or a cast as `empty_like`).


def _is_contiguous(x: Tensor) -> bool:
    # NumPy's flag ignores the strides of dimensions of size 1, and an empty array is
    # contiguous: PyTorch's rule exactly.
    return bool(x.data.flags.c_contiguous)


def is_contiguous(x: Tensor, memory_format: Any = None) -> bool:
    if memory_format is not None:
        fmt = memory_format_arg(memory_format, "is_contiguous")
        if fmt.startswith("channels_last"):
            return format_contiguous(x.shape, stride(x), fmt)
    return _is_contiguous(x)


def is_view(x: Tensor) -> bool:
    """`x._is_view()`: whether x shares the storage of another tensor as PyTorch's views do
    (`x._base` is that tensor): forum answers and issues print it to tell a view from a copy."""
    return x._base is not None


def stride(x: Tensor, dim: Any = None) -> Any:
    """`x.stride()`: the step in elements along each dimension (`x.stride(d)`: one of them)."""
    from .args import check_dim

    s = contiguous_strides(x.shape) if x.data.size == 0 else torch_strides(x.data)
    if dim is None:
        return s
    return s[check_dim(dim, max(x.ndim, 1))] if x.ndim else s[0]


_DIM_ORDER_TYPE = "The ambiguity_check argument must be a bool or a list of memory formats."


def dim_order(x: Tensor, *, ambiguity_check: Any = False) -> tuple[int, ...]:
    """`x.dim_order()`: the dimensions from the outermost in memory to the innermost, as
    PyTorch's elementwise output permutation; `ambiguity_check=True` refuses a layout that two
    orders describe (a size 1, two equal strides) unless a listed memory format fits alone."""
    from .args import MemoryFormat

    if not isinstance(ambiguity_check, bool):
        if not isinstance(ambiguity_check, list) or not all(
            isinstance(f, MemoryFormat) for f in ambiguity_check
        ):
            raise GradcliError(_DIM_ORDER_TYPE).mirror("TypeError")
    formats = ambiguity_check if isinstance(ambiguity_check, list) else []
    check = ambiguity_check if isinstance(ambiguity_check, bool) else True
    shape, strides = tuple(x.shape), stride(x)
    if check and (1 in shape or any(a == b for a, b in zip(strides, strides[1:]))):
        fits = sum(1 for f in formats if is_contiguous(x, f))
        if fits != 1:
            raise GradcliError(
                "The tensor does not have unique dim order, or cannot map to exact one of "
                "the given memory formats."
            ).mirror("RuntimeError")
    n = len(shape)
    if n < 2:
        return tuple(range(n))
    flat = x.data.size < 2 or layout_contiguous(shape, strides)
    last = n == 4 and format_contiguous(shape, strides, "channels_last")
    if flat and not last:
        return tuple(range(n))
    if last and not flat:
        return (0, *range(2, n), 1)

    def ge(a: int, b: int) -> bool:
        return b == 0 or (a != 0 and (a >= b or a % b == 0))

    def should_swap(a: int, b: int) -> int:
        sa, sb = strides[a], strides[b]
        if sa == 0 or sb == 0:
            return 0
        if sa == sb:
            return 0 if ge(shape[b], shape[a]) else 1
        if ge(sb, sa):
            return -1
        return 1 if ge(sa, sb) else 0

    # Insertion sort from the innermost, ties left in place (PyTorch's order).
    perm = list(reversed(range(n)))
    for i in range(1, n):
        d1 = i
        for d0 in reversed(range(i)):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    if ambiguity_check is not False and any(
        should_swap(perm[i], perm[i + 1]) != -1 for i in range(n - 1)
    ):
        raise GradcliError("The tensor does not have unique dim order.").mirror("RuntimeError")
    return tuple(reversed(perm))


def contiguous(x: Tensor, memory_format: Any = None) -> Tensor:
    """`x.contiguous()`: x itself when it is contiguous, else a row-major copy (recorded as
    PyTorch's CloneBackward0)."""
    fmt = "contiguous"
    if memory_format is not None:
        fmt = memory_format_arg(memory_format, "contiguous", x.shape)
        if fmt == "preserve" and not _is_contiguous(x):  # (ATen's check after is_contiguous)
            raise GradcliError(
                "preserve memory format is unsupported by the contiguous operator",
                hint="give torch.contiguous_format or torch.channels_last",
            ).mirror("RuntimeError")
    if fmt == "contiguous":
        if _is_contiguous(x):
            return x
        out = clone(x)
        out.data = row_major(out.data)
        return out
    if format_contiguous(x.shape, stride(x), fmt):
        return x
    out = clone(x)
    out.data = in_format(out.data, fmt)
    return out


def ravel(input: Any) -> Tensor:
    """`x.ravel()` / `torch.ravel(x)`: x.contiguous().view(-1), as ATen's (a view of a
    contiguous tensor, else a view of its row-major copy)."""
    from ..ops.arithmetic import tensor_arg
    from .functional import view

    return view(contiguous(tensor_arg(input, "input")), -1)


NAMES = declare(
    ("isclose", "torch Tensor", isclose, ""),
    ("allclose", "torch Tensor", allclose, ""),
    ("equal", "torch Tensor", equal, ""),
    ("is_tensor", "torch", is_tensor, ""),
    ("numel", "torch", numel, ""),
    ("nelement", "Tensor", numel, ""),
    ("is_floating_point", "torch Tensor", is_floating_point, ""),
    ("is_complex", "torch Tensor", is_complex, ""),
    ("is_signed", "torch Tensor", is_signed, ""),
    ("is_conj", "torch Tensor", is_conj, ""),
    ("is_neg", "torch Tensor", is_neg, ""),
    ("isnan", "torch Tensor", isnan, ""),
    ("isinf", "torch Tensor", isinf, ""),
    ("isfinite", "torch Tensor", isfinite, ""),
    ("is_contiguous", "Tensor", is_contiguous, ""),
    ("contiguous", "Tensor", contiguous, "clone"),
    ("ravel", "torch Tensor", ravel, "composition of reshape"),
    ("stride", "Tensor", stride, ""),
    ("dim_order", "Tensor", dim_order, ""),
    ("_is_view", "Tensor", is_view, ""),
)


def storage_offset(x: Tensor) -> int:
    """`x.storage_offset()`: how many elements into its storage a view starts (a tensor that
    owns its storage: 0). gradcli's views are NumPy views of their base's array, so the offset
    is the distance from the first element of the tensor they are views of."""
    x = tensor_arg(x, "input")
    if _GradMode.vmapped and batched(x):
        raise GradcliError(VMAP_STORAGE)
    root = x
    while root._base is not None:
        root = root._base
    if root is x:
        return 0
    own(root)
    if not np.shares_memory(x.data, root.data):
        raise GradcliError(
            "storage_offset() of this view is not supported: gradcli holds its values apart "
            "from the tensor it is a view of",
            hint="compare the tensors' values instead",
        )
    start = root.data.__array_interface__["data"][0]
    here = x.data.__array_interface__["data"][0]
    return (here - start) // x.data.dtype.itemsize


# (as_strided's argument of the name hides the function)
_offset_of = storage_offset


def strided_view_args(
    fn: str,
    size: Any,
    stride: Any,
    storage_offset: Any,
    default_offset: int,
    storage_elements: int,
    itemsize: int,
    position: int = 1,
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """as_strided's (and as_strided_scatter's) size, stride and storage offset, checked in
    ATen's order and words against a storage of `storage_elements` elements (the offset
    `default_offset` when not given); the view's size bounded by the element limit."""
    from ..base.limits import TENSOR_ELEMENTS

    z = tuple(int(v) for v in int_list((size,), fn, "size", position))
    st = tuple(int(v) for v in int_list((stride,), fn, "stride", position + 1))
    if len(z) != len(st):
        raise GradcliError("mismatch in length of strides and shape")
    if any(v < 0 for v in st):
        raise GradcliError(
            f"as_strided: Negative strides are not supported at the moment, got strides: {list(st)}"
        ).pytorch()
    if any(n < 0 for n in z):
        raise GradcliError(
            f"Storage size calculation overflowed with sizes={list(z)} and strides={list(st)}"
        )
    k = default_offset if storage_offset is None else int_arg(storage_offset, "storage_offset")
    if k < 0:
        raise GradcliError(f"Tensor: invalid storage offset {k}")
    total = 1
    for n in z:
        total *= n
    if total > TENSOR_ELEMENTS.value:
        TENSOR_ELEMENTS.check(total, f"the result of {fn}, of shape {list(z)}")
    needed = 0 if not total else 1 + k + sum((n - 1) * s for n, s in zip(z, st))
    if needed > storage_elements:
        raise GradcliError(
            f"setStorage: sizes {list(z)}, strides {list(st)}, storage offset {k}, and itemsize "
            f"{itemsize} requiring a storage size of {needed * itemsize} are out of bounds for "
            f"storage of size {storage_elements * itemsize}"
        )
    return z, st, k


def as_strided(input: Any, size: Any, stride: Any, storage_offset: Any = None) -> Tensor:  # noqa: A002
    """`torch.as_strided(x, size, stride, storage_offset)`: a view of x's storage with the
    given steps (in elements), from `storage_offset` (x's own by default); places may repeat
    (sliding windows), and the gradient adds up each element's places (AsStridedBackward0).
    gradcli reads only elements of x itself: a place elsewhere in the storage is refused."""
    x = tensor_arg(input, "input")
    own = _offset_of(x)
    root = x
    while root._base is not None:
        root = root._base
    z, st, k = strided_view_args(
        "as_strided", size, stride, storage_offset, own, storage_elements(root), x.data.itemsize
    )
    if x.ndim == 0:
        x = reshape(x, (1,))  # (its one element: the same storage place)
    idx = _places_in(x, z, st, k - own)
    if idx is None:
        raise GradcliError(
            "as_strided reading storage elements that are not elements of the tensor itself "
            "is not supported by gradcli",
            hint="call as_strided on the tensor that owns the storage (a contiguous tensor, "
            "not a view of part of it), or index the tensor",
        )
    return apply(S.as_strided, x, size=z, stride=st, idx=idx, offset=k)


def _places_in(x: Tensor, size: tuple, stride: tuple, start: int) -> tuple | None:
    """x's index of each place of the strided view that starts `start` elements after x's
    first element (None when a place is not an element of x)."""
    from .indexing import index_of_places, strided_places

    if not builtins.all(size):
        return tuple(np.zeros(size, np.int64) for _ in range(x.ndim))
    return index_of_places(x.data, strided_places(size, stride, start))
