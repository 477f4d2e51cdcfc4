"""Tensor constructors as PyTorch's: `torch.tensor`, `torch.Tensor(...)`, zeros / ones / full /
eye / arange / linspace / rand / randn and their `_like` forms, `Variable`; the seed and the
default dtype."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..core import dtypes, hooks
from ..core.dtypes import BF16, check_dtype, round_bf16
from ..core.layout import in_format
from ..core.tensor import (
    Settings,
    Tensor,
    data_array,
    deterministic_fill,
    gapped,
    numpy_data,
    typename,
)
from ..ops.arithmetic import size_check, tensor_arg, tensor_param
from .args import (
    NO_SIZE,
    float_dtype,
    int_arg,
    memory_format_arg,
    new_tensor,
    numpy_number,
    parsed_number,
    shape_arg,
    sizes_arg,
)
from .printing import UNWRITTEN, Size


def set_default_dtype(dtype: Any) -> None:
    """`torch.set_default_dtype`: tensors and random draws are made in it from now on."""
    Settings.default_dtype = Settings.draw_dtype = np.dtype(dtype)


def tensor(
    data: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    copy_construct_warning(data, "torch.tensor(sourceTensor)")
    return made_tensor(data, dtype, requires_grad)


def made_tensor(data: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """`torch.tensor(data, dtype=..., requires_grad=...)` without its warning for a tensor."""
    dt = None if dtype is None else check_dtype(dtype, fn="tensor")
    if isinstance(data, np.ndarray):
        _check_strides(data)
    return new_tensor(data_array(data, dt, warn_arrays=True), None, requires_grad)


def copy_construct_warning(data: Any, call: str) -> None:
    """PyTorch's warning for a tensor copied by `torch.tensor(t)` / `x.new_tensor(t)` (shown
    once for each place, as Python shows it)."""
    if isinstance(data, Tensor):
        hooks.warn(
            "To copy construct from a tensor, it is recommended to use "
            "sourceTensor.detach().clone() or sourceTensor.detach().clone().requires_grad_(True), "
            f"rather than {call}.",
            "t.detach().clone() copies the values (no gradient flows back to t either way)",
        )


def as_tensor(data: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """`torch.as_tensor`: a tensor of the dtype asked is returned as it is (of another dtype,
    converted as `data.to(dtype)`, in the graph), and a NumPy array of that dtype shares its
    memory with the tensor made of it (as `torch.from_numpy`: a change of the array in place
    is seen in the tensor)."""
    if isinstance(data, Tensor):
        if dtype is None or check_dtype(dtype, fn="as_tensor") == data.dtype:
            return data
        from .functional import to_dtype

        return to_dtype(data, dtype)  # PyTorch's `data.to(dtype)`: the graph goes on
    if isinstance(data, np.ndarray) and (
        dtype is None or check_dtype(dtype, fn="as_tensor") == data.dtype
    ):
        return from_numpy(data)
    return made_tensor(data, dtype=dtype)


def from_numpy(ndarray: Any) -> Tensor:
    """`torch.from_numpy(a)`: a tensor of the array's dtype sharing its memory (a change of the
    tensor in place is seen in the array; an array gradcli made read-only is copied)."""
    if not isinstance(ndarray, np.ndarray):
        raise GradcliError(f"expected np.ndarray (got {typename(ndarray)})").mirror("TypeError")
    _check_strides(ndarray)
    arr = numpy_data(ndarray)
    return Tensor(arr if arr.flags.writeable else arr.copy())


NEGATIVE_STRIDES = (
    "At least one stride in the given numpy array is negative, and tensors with negative "
    "strides are not currently supported. (You can probably work around this by making a copy "
    "of your array  with array.copy().) "
)


def _check_strides(a: np.ndarray) -> None:
    """PyTorch's refusal of an array viewed backwards (`a[::-1]`) where it would share it."""
    if any(st < 0 for st in a.strides):
        raise GradcliError(NEGATIVE_STRIDES).mirror("ValueError")


# The overloads of PyTorch's legacy constructors (`torch.Tensor(...)`, `torch.FloatTensor(...)`
# and their kin: `new()` to its argument parser), as its TypeError lists them.
_NEW_OPTIONS = [
    "(*, torch.device device = None)",
    "(torch.Storage storage)",
    "(Tensor other)",
    "(tuple of ints size, *, torch.device device = None)",
    "(object data, *, torch.device device = None)",
]


def _legacy_keywords(args: tuple, kwargs: dict) -> None:
    """The keywords a legacy constructor takes: `device=` alone (a CPU device); any other
    (`requires_grad=`, `dtype=`) is its parser's TypeError, listing its overloads."""
    if any(k != "device" for k in kwargs):
        from .callerrors import _invalid_combination

        words = _invalid_combination("new", _NEW_OPTIONS, list(args), kwargs)
        raise GradcliError(
            words or "new() received an invalid combination of arguments",
            hint="make the tensor first, then ask for its gradient: "
            "torch.tensor(data, requires_grad=True) or x.requires_grad_()",
        ).mirror("TypeError")
    if kwargs.get("device") is not None:
        from .args import to_device_check

        to_device_check(kwargs["device"])


def legacy_tensor(*args: Any, **kwargs: Any) -> Tensor:  # noqa: N802
    """`torch.Tensor(data)`, `torch.Tensor(2, 3)` (sizes: gradcli fills zeros) or `torch.Tensor()`
    (empty); PyTorch's legacy constructors take no `requires_grad=` or `dtype=`."""
    _legacy_keywords(args, kwargs)
    return _legacy(args, None)


def _legacy(args: tuple, dtype: Any) -> Tensor:
    if len(args) == 1 and isinstance(args[0], Tensor):
        # torch.Tensor(t) is t itself under a new name, any dtype (FloatTensor(t) wants
        # float32): the same memory, AliasBackward0 when t requires grad.
        t = args[0]
        if dtype is not None and t.dtype != np.dtype(dtype):
            raise GradcliError(
                f"expected {_options(np.dtype(dtype))} (got {_options(t.dtype)})",
                hint=f"convert it: x.to(torch.{dtypes.TORCH_NAMES[np.dtype(dtype)]})",
            ).mirror("TypeError")
        return _alias(t)
    dt = float_dtype(dtype, "Tensor")
    if not args:
        # torch.Tensor(): an empty tensor (what notebooks grow with torch.cat in a loop)
        return new_tensor(np.zeros((0,), dtype=dt), None, False)
    if len(args) == 1 and isinstance(args[0], Size):
        args = tuple(args[0])  # torch.Tensor(x.shape): sizes
    if args and all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        values = _uninitialised(shape_arg(args), dt)
        return new_tensor(values, None, False)
    if len(args) != 1:
        from .callerrors import _invalid_combination

        words = _invalid_combination("new", _NEW_OPTIONS, list(args), {})
        raise GradcliError(
            words or "new() received an invalid combination of arguments",
            hint="give the data (a nested list) or the sizes",
        ).mirror("TypeError")
    if isinstance(args[0], np.ndarray):
        _check_strides(args[0])
        return _legacy_from_array(args[0], dt)
    _sequence_data(args[0])
    return new_tensor(data_array(args[0], dt, warn_arrays=True), None, False)


def _sequence_data(what: Any) -> None:
    """The data of a legacy constructor is a sequence (a number is its parser's TypeError)."""
    if isinstance(what, (list, tuple, range)):
        return
    text = (
        "new(): invalid data type 'str'"
        if isinstance(what, str)
        else f"new(): data must be a sequence (got {typename(what)})"
    )
    raise GradcliError(text).mirror("TypeError")


def _legacy_from_array(a: np.ndarray, dt: np.dtype) -> Tensor:
    """`torch.LongTensor(arr)` and its kin on a NumPy array, as PyTorch's legacy constructors
    take one: an array of the constructor's own dtype is shared (as `torch.from_numpy`: a later
    change of the array is seen in the tensor), any other dtype is converted into a copy (floats
    truncated toward zero into integers, nonzero as True), and a 0-d integer array is a size
    (`torch.FloatTensor(np.array(3))` is three uninitialised values: gradcli's zeros)."""
    if a.ndim == 0 and a.dtype.kind in "iu":
        return new_tensor(_uninitialised(shape_arg((int(a),)), dt), None, False)
    _check_strides(a)
    if a.dtype == dt:
        return from_numpy(a)
    return new_tensor(data_array(a, dt, warn_arrays=True), None, False)


def _alias(t: Tensor) -> Tensor:
    """A new tensor object on t's memory (PyTorch's alias: `t[...]`)."""
    from .indexing import getitem

    return getitem(t, Ellipsis)


def FloatTensor(*args: Any, **kwargs: Any) -> Tensor:  # noqa: N802
    _legacy_keywords(args, kwargs)
    return _legacy(args, np.float32)


def DoubleTensor(*args: Any, **kwargs: Any) -> Tensor:  # noqa: N802
    _legacy_keywords(args, kwargs)
    return _legacy(args, np.float64)


def _typed_legacy(dt: np.dtype, name: str) -> Callable[..., Tensor]:
    """`torch.LongTensor(...)` and its kin: data (a nested list, a NumPy array, or a tensor of
    this very dtype), sizes (gradcli fills zeros where PyTorch leaves memory uninitialised), or
    nothing (an empty tensor). They take no `requires_grad` (PyTorch's refuse it)."""

    def make(*args: Any, **kwargs: Any) -> Tensor:
        _legacy_keywords(args, kwargs)
        if len(args) == 1 and isinstance(args[0], Size):
            args = tuple(args[0])  # torch.LongTensor(x.shape): sizes
        if not args:
            return new_tensor(np.zeros((0,), dtype=dt), None, False)
        if all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
            return new_tensor(_uninitialised(shape_arg(args), dt), None, False)
        if len(args) == 1 and isinstance(args[0], Tensor):
            t = args[0]
            if t.dtype != dt:
                raise GradcliError(
                    f"expected {_options(dt)} (got {_options(t.dtype)})",
                    hint=f"convert it: x.to(torch.{dtypes.TORCH_NAMES[dt]})",
                ).mirror("TypeError")
            return _alias(t)
        if len(args) == 1 and isinstance(args[0], (list, tuple, range)):
            return new_tensor(data_array(args[0], dt, warn_arrays=True), None, False)
        if len(args) == 1 and isinstance(args[0], np.ndarray):
            return _legacy_from_array(args[0], dt)
        if len(args) == 1:
            _sequence_data(args[0])
        from .callerrors import _invalid_combination

        words = _invalid_combination("new", _NEW_OPTIONS, list(args), {})
        raise GradcliError(
            words or f"{name}() takes the data (a nested list) or sizes",
            hint="give the data (a nested list) or the sizes",
        ).mirror("TypeError")

    make.__name__ = name
    return make


def _options(dt: np.dtype) -> str:
    return (
        f"TensorOptions(dtype={dtypes.cpp_type_name(dt)}, device=cpu, layout=Strided, "
        "requires_grad=false (default), pinned_memory=false (default), "
        "memory_format=(nullopt))"
    )


LongTensor = _typed_legacy(np.dtype(np.int64), "LongTensor")
IntTensor = _typed_legacy(np.dtype(np.int32), "IntTensor")
BoolTensor = _typed_legacy(np.dtype(np.bool_), "BoolTensor")
ByteTensor = _typed_legacy(np.dtype(np.uint8), "ByteTensor")
ShortTensor = _typed_legacy(np.dtype(np.int16), "ShortTensor")
CharTensor = _typed_legacy(np.dtype(np.int8), "CharTensor")
HalfTensor = _typed_legacy(np.dtype(np.float16), "HalfTensor")
BFloat16Tensor = _typed_legacy(dtypes.BF16, "BFloat16Tensor")


class LegacyTensorType:
    """`torch.FloatTensor` and its kin as a program holds them: calling one makes a tensor of
    its dtype; printed as PyTorch prints the class (`<class 'torch.FloatTensor'>`), its
    `__name__` the class's; `isinstance(x, torch.FloatTensor)` is whether x has its dtype
    (a CPU tensor); `x.type(torch.DoubleTensor)` converts."""

    __slots__ = ("__name__", "dtype", "_make")

    def __init__(self, name: str, dtype: Any, make: Callable[..., Tensor]) -> None:
        self.__name__ = name
        self.dtype = np.dtype(dtype)
        self._make = make

    def __call__(self, *args: Any, **kwargs: Any) -> Tensor:
        return self._make(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<class 'torch.{self.__name__}'>"

    @property
    def name(self) -> str:
        return self.__name__

    def instance(self, v: Any) -> bool:
        return isinstance(v, Tensor) and v.dtype == self.dtype


LEGACY_TYPES_BY_NAME = {
    t.__name__: t
    for t in (
        LegacyTensorType("FloatTensor", np.float32, FloatTensor),
        LegacyTensorType("DoubleTensor", np.float64, DoubleTensor),
        LegacyTensorType("LongTensor", np.int64, LongTensor),
        LegacyTensorType("IntTensor", np.int32, IntTensor),
        LegacyTensorType("BoolTensor", np.bool_, BoolTensor),
        LegacyTensorType("ByteTensor", np.uint8, ByteTensor),
        LegacyTensorType("ShortTensor", np.int16, ShortTensor),
        LegacyTensorType("CharTensor", np.int8, CharTensor),
        LegacyTensorType("HalfTensor", np.float16, HalfTensor),
        LegacyTensorType("BFloat16Tensor", dtypes.BF16, BFloat16Tensor),
    )
}


def Variable(t: Any, requires_grad: bool = False, volatile: bool = False) -> Tensor:  # noqa: N802
    """`torch.autograd.Variable`: since PyTorch 0.4 a Variable is a Tensor."""
    t = tensor_arg(t, "Variable's data")
    if volatile:
        hooks.warn(
            "volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
            "wrap the computation in `with torch.no_grad():` to record no graph",
        )
    if requires_grad:
        if t.node is not None:
            return t
        out = Tensor(t.data, requires_grad=True)
        return out
    return t


def _filled(
    fill: Callable[[tuple[int, ...], np.dtype], np.ndarray], name: str
) -> Callable[..., Tensor]:
    def make(
        *sizes: Any,
        size: Any = NO_SIZE,
        dtype: Any = None,
        requires_grad: bool = False,
        device: Any = None,
        out: Any = None,
        layout: Any = None,
        pin_memory: bool = False,
    ) -> Tensor:
        shape = sizes_arg(sizes, size, name)
        if out is not None:
            from .functional import write_out

            if not isinstance(out, Tensor):
                return write_out(out, None, name)  # PyTorch's TypeError
            values = fill(shape, out.dtype if dtype is None else check_dtype(dtype, fn=name))
            made = Tensor(values.astype(out.dtype, copy=False))
            return write_out(out, made, name, warn_resize=False)
        return new_tensor(fill(shape, float_dtype(dtype, name)), None, requires_grad)

    make.__name__ = name
    return make


zeros = _filled(lambda s, d: np.zeros(s, dtype=d), "zeros")


ones = _filled(lambda s, d: np.ones(s, dtype=d), "ones")


def _uninitialised(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    filled = deterministic_fill(shape, dtype)
    if filled is not None:
        return filled
    values = np.zeros(shape, dtype=dtype)
    if values.size:
        UNWRITTEN[id(values)] = values
    return values


_empty = _filled(_uninitialised, "empty")


def empty(
    *sizes: Any,
    size: Any = NO_SIZE,
    dtype: Any = None,
    requires_grad: bool = False,
    device: Any = None,
    out: Any = None,
    layout: Any = None,
    pin_memory: bool = False,
    memory_format: Any = None,
) -> Tensor:
    """`torch.empty(...)`, laid out in `memory_format` (torch.channels_last: NHWC strides)."""
    made = _empty(
        *sizes,
        size=size,
        dtype=dtype,
        requires_grad=requires_grad,
        device=device,
        out=out,
        layout=layout,
        pin_memory=pin_memory,
    )
    fmt = memory_format_arg(memory_format, "empty", made.shape)
    if fmt.startswith("channels_last") and out is None:
        values = in_format(made.data, fmt)
        if values is not made.data and values.size:
            UNWRITTEN.pop(id(made.data), None)
            UNWRITTEN[id(values)] = values
        made.data = values
    return made


def _with_gaps(shape: tuple, strides: tuple, dt: Any, requires_grad: bool) -> Tensor:
    """empty_strided's layout with gaps between elements (a padded row, a column of a wider
    matrix): a storage as long as the last element's place, the tensor laid over it with
    these strides (as PyTorch's; places no element uses stay in the storage). Strides that
    make two elements share a place are refused."""
    order = sorted((d for d in range(len(shape)) if shape[d] >= 2), key=lambda d: strides[d])
    reach = 1
    for d in order:
        if strides[d] < reach:
            raise NotSupported(
                "torch.empty_strided with strides that make elements share memory is not "
                "supported by gradcli",
                hint="give strides that keep each element its own place, e.g. a "
                "permutation of the contiguous ones, or padded ones",
            )
        reach = strides[d] * (shape[d] - 1) + 1
    n = 0 if 0 in shape else 1 + sum((k - 1) * st for k, st in zip(shape, strides))
    limits.TENSOR_ELEMENTS.check(n, "the storage of torch.empty_strided")
    filled = deterministic_fill((n,), dt)
    buffer = np.zeros(n, dtype=dt) if filled is None else filled
    values = np.ndarray(shape, dt, buffer=buffer, strides=[st * buffer.itemsize for st in strides])
    if values.size and filled is None:
        UNWRITTEN[id(values)] = values
    gapped(buffer, n)
    return new_tensor(values, None, requires_grad)


_NOT_WRITABLE = (
    "The given buffer is not writable, and PyTorch does not support non-writable tensors. "
    "This means you can write to the underlying (supposedly non-writable) buffer using the "
    "tensor. You may want to copy the buffer to protect its data or make it writable before "
    "converting it to a tensor. This type of warning will be suppressed for the rest of this "
    "program. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:"
    "1556.)"
)


def frombuffer(
    buffer: Any,
    *,
    dtype: Any,
    count: Any = -1,
    offset: Any = 0,
    requires_grad: Any = False,
) -> Tensor:
    """`torch.frombuffer(b, dtype=...)`: the bytes of `b` read as elements of `dtype` (the
    machine's byte order), `count` of them (-1: all) from byte `offset`, with PyTorch's checks
    and words. A bytes object cannot be written, so PyTorch warns (once) that the tensor may
    write to it: gradcli's tensor holds a copy of the bytes (writing to it leaves them as they
    were)."""
    if not isinstance(buffer, bytes):
        raise GradcliError("object does not implement Python buffer protocol.").mirror("ValueError")
    dt = check_dtype(dtype, fn="frombuffer")
    if dt == BF16 or dt.kind not in "biufc":
        raise NotSupported(
            f"torch.frombuffer with dtype={dtypes.torch_name(dt)} is not supported by gradcli",
            hint="read the bytes as float32, float64, float16, integers, bool or complex",
        )
    count, offset = int(count), int(offset)
    n = len(buffer)
    if n == 0 or count == 0:
        raise GradcliError(f"both buffer length ({n}) and count ({count}) must not be 0").mirror(
            "ValueError"
        )
    if offset < 0 or offset >= n:
        raise GradcliError(
            f"offset ({offset} bytes) must be non-negative and no greater than buffer length "
            f"({n} bytes) minus 1"
        ).mirror("ValueError")
    size = dt.itemsize
    if count < 0:
        if (n - offset) % size:
            raise GradcliError(
                f"buffer length ({n - offset} bytes) after offset ({offset} bytes) must be a "
                f"multiple of element size ({size})"
            ).mirror("ValueError")
        count = (n - offset) // size
    elif offset + count * size > n:
        raise GradcliError(
            f"requested buffer length ({count} * {size} bytes) after offset ({offset} bytes) "
            f"must not be greater than actual buffer length ({n} bytes)"
        ).mirror("ValueError")
    limits.TENSOR_ELEMENTS.check(count, "the elements of torch.frombuffer")
    hooks.warn(_NOT_WRITABLE, hint="bytes(...) are read as a copy", once="frombuffer")
    values = np.frombuffer(buffer, dtype=dt, count=count, offset=offset).copy()
    return new_tensor(values, None, bool(requires_grad))


def empty_strided(
    size: Any,
    stride: Any,
    *,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """`torch.empty_strided(size, stride)`: an uninitialised tensor laid out with these
    strides (a dense layout: every element its own place, no gaps, as `empty_like` of a
    permuted tensor has; a layout with gaps or shared places is refused)."""
    from ..core.layout import is_dense, with_strides

    shape = sizes_arg((size,), NO_SIZE, "empty_strided")
    if isinstance(stride, int) and not isinstance(stride, bool):
        stride = (stride,)
    if not isinstance(stride, (tuple, list)) or any(
        isinstance(s, bool) or not isinstance(s, (int, np.integer)) for s in stride
    ):
        raise GradcliError(
            "empty_strided(): argument 'stride' (position 2) must be tuple of ints, not "
            + typename(stride)
        ).mirror("TypeError")
    strides = tuple(int(s) for s in stride)
    if len(strides) != len(shape):
        raise GradcliError(
            f"dimensionality of sizes ({len(shape)}) must match dimensionality of strides "
            f"({len(strides)})"
        ).mirror("RuntimeError")
    if any(s < 0 for s in strides):
        raise GradcliError(
            "as_strided: Negative strides are not supported at the moment, got strides: "
            f"{list(strides)}"
        ).mirror("RuntimeError")
    dt = float_dtype(dtype, "empty_strided")
    if not is_dense(shape, strides):
        return _with_gaps(shape, strides, dt, requires_grad)
    filled = deterministic_fill(shape, dt)
    values = with_strides(np.zeros(shape, dtype=dt) if filled is None else filled, strides)
    if values.size and filled is None:
        UNWRITTEN[id(values)] = values
    return new_tensor(values, None, requires_grad)


def new_empty_strided(
    x: Tensor,
    size: Any,
    stride: Any,
    *,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """`Tensor.new_empty_strided(size, stride)`: torch.empty_strided in x's dtype."""
    return empty_strided(
        size, stride, dtype=x.dtype if dtype is None else dtype, requires_grad=requires_grad
    )


def empty_permuted(
    size: Any,
    physical_layout: Any,
    *,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """`torch.empty_permuted(size, physical_layout)`: an uninitialised tensor whose dimensions
    lie in memory in the order `physical_layout` gives (its last entry the innermost)."""
    shape = sizes_arg((size,), NO_SIZE, "empty_permuted")
    if not isinstance(physical_layout, (tuple, list)) or any(
        isinstance(d, bool) or not isinstance(d, (int, np.integer)) for d in physical_layout
    ):
        raise GradcliError(
            "empty_permuted(): argument 'physical_layout' (position 2) must be tuple of ints, "
            "not " + typename(physical_layout)
        ).mirror("TypeError")
    order = [int(d) for d in physical_layout]
    if len(order) != len(shape):
        raise GradcliError(
            f"Number of dimensions in size does not match the length of the physical_layout; "
            f"i.e. len(size) = {len(shape)} is not equal to len(physical_layout) = {len(order)}"
        ).mirror("RuntimeError")
    seen: set[int] = set()
    for i, d in enumerate(order):  # (ATen's checks, in its order)
        if not 0 <= d < len(shape):
            raise GradcliError(
                f"Dimension out of range (expected to be between 0 and {len(shape) - 1}, but got "
                f"{d} at index {i}).  NB: negative dims not currently supported; file an issue "
                "if you want it."
            ).mirror("RuntimeError")
        if d in seen:
            raise GradcliError("Duplicate dim not allowed").mirror("RuntimeError")
        seen.add(d)
    strides = [0] * len(shape)
    step = 1
    for d in reversed(order):
        strides[d] = step
        step *= max(shape[d], 1)
    return empty_strided(shape, tuple(strides), dtype=dtype, requires_grad=requires_grad)


def full(
    size: Any, fill_value: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None
) -> Tensor:
    shape = shape_arg((size,) if isinstance(size, int) else tuple(size))
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    fill_value = numpy_number(fill_value)
    if not isinstance(fill_value, (bool, int, float, complex)):
        raise GradcliError(
            "full(): argument 'fill_value' (position 2) must be Number, not " + typename(fill_value)
        ).mirror("TypeError")
    if dtype is None:
        # As PyTorch: the fill value's type chooses (an int fills int64, a bool bool).
        dt = dtypes.scalar_dtype(fill_value, Settings.default_dtype)
    else:
        dt = check_dtype(dtype, fn="full")
    dtypes.checked_scalar(fill_value, dt, math.prod(shape))  # (ATen fills with the number)
    fill_value = dtypes.wrap_unsigned(fill_value, dt)
    with np.errstate(over="ignore"):
        return new_tensor(np.full(shape, fill_value, dtype=dt), None, requires_grad)


def eye(
    n: int, m: int | None = None, dtype: Any = None, requires_grad: bool = False, device: Any = None
) -> Tensor:
    for name, v in (("n", n), ("m", m)):
        if isinstance(v, int) and not isinstance(v, bool) and v < 0:
            raise GradcliError(f"{name} must be greater or equal to 0, got {v}")
    shape = shape_arg((n, n if m is None else m))
    return new_tensor(
        np.eye(shape[0], shape[1], dtype=float_dtype(dtype, "eye")), None, requires_grad
    )


def _wide_unsigned(dtype: Any) -> bool:
    try:
        return np.dtype(dtype) in dtypes.WIDE_UNSIGNED
    except TypeError:
        return False  # (a program's `float` / `int`: `check_dtype` reads them)


def arange(
    *args: Any,
    dtype: Any = None,
    requires_grad: bool = False,
    device: Any = None,
    start: Any = None,
    end: Any = None,
    step: Any = None,
) -> Tensor:
    called = (args, start, end, step)
    args = tuple(parsed_number(a) for a in args)
    start, end, step = (parsed_number(v) for v in (start, end, step))
    if any(isinstance(v, Tensor) for v in (*args, start, end, step)):
        _not_numbers("arange", *called)
    args = _arange_args(args, start, end, step)
    if not 1 <= len(args) <= 3:
        raise GradcliError("arange() takes end, or start, end[, step]")
    # (a NumPy number is the Python number of its value, as PyTorch's parser takes it)
    args = [a.item() if isinstance(a, (np.integer, np.floating)) else a for a in args]
    for a in args:
        if not isinstance(a, (int, float)):
            raise GradcliError(f"arange() arguments must be numbers, not {typename(a)}")
    # A bool is the int it stands for, as PyTorch's Scalar takes it (`torch.arange(True)`).
    args = [int(a) if isinstance(a, bool) else a for a in args]
    s, e, st = (
        (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) == 3 else 1)
    )
    if st == 0:
        raise GradcliError("step must be nonzero")
    if not all(math.isfinite(a) for a in (s, e, st)):
        raise GradcliError(f"unsupported range: {_scalar_text(s)} -> {_scalar_text(e)}")
    if (st > 0 and e < s) or (st < 0 and e > s):
        raise GradcliError("upper bound and lower bound inconsistent with step sign")
    # As PyTorch: integer arguments give an int64 range (indices), any float a float one.
    ints = dtype is None and all(isinstance(a, int) for a in (s, e, st))
    if dtype is not None and _wide_unsigned(dtype):
        raise GradcliError(
            f"\"arange_cpu\" not implemented for '{dtypes.scalar_type_name(np.dtype(dtype))}'",
            hint="make an int64 range and convert it: torch.arange(n).to(torch.uint32)",
        ).mirror("NotImplementedError")
    dt = np.int64 if ints else float_dtype(dtype, "arange")
    if np.dtype(dt) == np.int64:
        # ATen sizes an int64 range from the numbers converted toward zero first:
        # `arange(0, 1.5, 1, dtype=torch.int64)` is [0] where int32's is [0, 1].
        for v in (s, e, st):
            dtypes.checked_scalar(v, np.dtype(np.int64))
        xs, xe, xst = (math.trunc(v) for v in (s, e, st))
        if xst == 0:
            raise GradcliError("step must be nonzero").mirror("ValueError")
        sgn = (xst > 0) - (xst < 0)
        n = max(0, (xe - xs + xst - sgn) // xst)
    else:
        n = max(0, math.ceil((e - s) / st))
    size_check((n,), "arange's length")
    if np.dtype(dt) == np.bool_:  # (ATen's kernel has no bool variant, whatever the length)
        raise GradcliError(
            "\"arange_cpu\" not implemented for 'Bool'",
            hint="torch.arange(n) > 0 or torch.arange(n) % 2 == 1 for a mask",
        ).mirror("NotImplementedError")
    if np.dtype(dt).kind == "f":
        return new_tensor(_arange_float(s, st, n, np.dtype(dt)), None, requires_grad)
    # An integer dtype's kernel: start + step * i in int64 (each number converted toward
    # zero), then stored, modulo 2**bits where the dtype is narrower.
    acc = np.dtype(np.int64)
    for v in (s, st):
        dtypes.checked_scalar(v, acc)
    values = np.int64(math.trunc(s)) + np.arange(n, dtype=acc) * np.int64(math.trunc(st))
    return new_tensor(values.astype(dt), None, requires_grad)


def _not_numbers(fn: str, args: tuple, start: Any, end: Any, step: Any) -> None:
    """PyTorch's TypeError for a call given a tensor where a Number goes: one of more than one
    element, or one that requires grad (its parser refuses a tensor that carries a gradient)."""
    from . import callerrors

    def shown(v: Any) -> Any:  # (the parser's words see a tensor it cannot take as a number)
        if isinstance(v, Tensor) and v.ndim == 0:
            return Tensor(np.zeros(2, dtype=v.data.dtype))
        return v

    named = (("start", start), ("end", end), ("step", step))
    given = {k: shown(v) for k, v in named if v is not None}
    found = callerrors.parser_error(fn, [shown(a) for a in args], given)
    if found is None:
        from .torch_signatures import PARSER

        options = PARSER[f"torch.{fn}"].split("|")[1:]
        words = callerrors._invalid_combination(fn, options, [shown(a) for a in args], given)
    words = found[1] if found else words or f"{fn}() arguments must be numbers, not Tensor"
    raise GradcliError(
        words, hint="give a number, or a tensor's t.item() (a tensor of one value)"
    ).mirror("TypeError")


def _arange_args(args: tuple, start: Any, end: Any, step: Any) -> tuple:
    """The numbers of an arange call as PyTorch's argument parser binds them: `(end)`, or
    `(start, end[, step])` filled by position first and then by keyword (`arange(1, 5,
    step=0.5)`, `arange(1, end=5)`); a call none of the three overloads takes is PyTorch's
    TypeError in its words (`arange(end=5, step=2)`, `arange(5, step=2)`)."""
    given = {k: v for k, v in (("start", start), ("end", end), ("step", step)) if v is not None}
    if not given:
        return args
    if not args and list(given) == ["end"]:
        return (end,)
    names = ("start", "end", "step")
    if len(args) <= 3 and all(names.index(k) >= len(args) for k in given):
        bound = list(args) + [given.get(n) for n in names[len(args) :]]
        if bound[0] is not None and bound[1] is not None:
            return tuple(bound[:2]) + (() if bound[2] is None else (bound[2],))
    from . import callerrors
    from .torch_signatures import PARSER

    found = callerrors.parser_error("arange", list(args), given)
    if found is None:
        options = PARSER["torch.arange"].split("|")[1:]
        words = callerrors._invalid_combination("arange", options, list(args), given)
        found = ("TypeError", words or "arange() received an invalid combination of arguments")
    raise GradcliError(found[1]).mirror(found[0])


RANGE_DEPRECATED = (
    "torch.range is deprecated and will be removed in a future release because its behavior "
    "is inconsistent with Python's range builtin. Instead, use torch.arange, which produces "
    "values in [start, end)."
)


def range_(
    *args: Any,
    dtype: Any = None,
    requires_grad: bool = False,
    device: Any = None,
    start: Any = None,
    end: Any = None,
    step: Any = None,
) -> Tensor:
    """`torch.range(start, end, step=1)` (deprecated in PyTorch, which warns): the end is
    included and the result is of the default float dtype unless `dtype` says otherwise.
    ATen's kernel: `int((end - start) / step + 1)` elements, each `start + i * step` in the
    accumulate type (double for the float dtypes, int64 for the integer ones), then stored."""
    hooks.warn(RANGE_DEPRECATED)  # at each call site, as Python's warnings filter shows it
    given = {"start": start, "end": end, "step": step}
    for i, name in enumerate(("start", "end", "step")):  # PyTorch's argument parser's words
        if given[name] is not None and len(args) > i:
            raise GradcliError(f"range() got multiple values for argument '{name}'").mirror(
                "TypeError"
            )
    if not args and start is None:  # PyTorch's argument parser's words, as it says them
        raise GradcliError('range() missing 2 required positional argument: "start", "end"').mirror(
            "TypeError"
        )
    if len(args) < 2 and end is None:
        raise GradcliError('range() missing 1 required positional arguments: "end"').mirror(
            "TypeError"
        )
    args = args + tuple(v for v in (start, end, step) if v is not None)
    args = tuple(parsed_number(a) for a in args)
    if len(args) > 3:
        raise GradcliError(
            f"range() takes from 2 to 3 positional arguments but {len(args)} were given"
        ).mirror("TypeError")
    for a in args:
        if isinstance(a, bool) or not isinstance(a, (int, float)):
            raise GradcliError(f"range() arguments must be numbers, not {typename(a)}").mirror(
                "TypeError"
            )
    s, e, st = args[0], args[1], args[2] if len(args) == 3 else 1
    if st == 0:
        raise GradcliError("step must be nonzero")
    if not all(math.isfinite(a) for a in (s, e, st)):
        raise GradcliError(f"unsupported range: {_scalar_text(s)} -> {_scalar_text(e)}")
    if (st > 0 and e < s) or (st < 0 and e > s):
        raise GradcliError("upper bound and lower bound inconsistent with step sign")
    dt = np.dtype(float_dtype(dtype, "range"))
    if dt.kind in "iu":
        xs, xe, xst = int(s), int(e), int(st)  # the accumulate type of an integer dtype: int64
        if xst == 0:
            raise GradcliError("step must be nonzero")
        n = max(0, int((xe - xs) / xst + 1))
        size_check((n,), "range's length")
        values = np.int64(xs) + np.arange(n, dtype=np.int64) * np.int64(xst)
    elif dt.kind == "f":
        n = max(0, int((float(e) - float(s)) / float(st) + 1))
        size_check((n,), "range's length")
        acc = np.dtype(np.float64) if dt.itemsize >= 4 else np.dtype(np.float32)
        values = acc.type(s) + np.arange(n, dtype=acc) * acc.type(st)
    else:
        raise GradcliError(
            f"\"range_cpu\" not implemented for '{dtypes.scalar_type_name(dt)}'"
        ).mirror("NotImplementedError")
    return new_tensor(values.astype(dt), None, requires_grad)


def _scalar_text(v: float) -> str:
    """A number as c10::Scalar prints it in an error: an int, or a float with %g's digits."""
    if isinstance(v, int):
        return str(v)
    return "inf" if v == math.inf else "-inf" if v == -math.inf else "nan" if v != v else f"{v:g}"


def _arange_float(start: float, step: float, n: int, dt: np.dtype) -> np.ndarray:
    """ATen's CPU arange of a float dtype, bit for bit: in its accumulate type (double for
    float and double, float for half), the scalar loop's `start + step * i` (one fused
    multiply-add) for the tail, and for each pair of 32-byte vectors at the front, the vector
    base `start + step * i0` rounded to the dtype, then `base + k * step` per lane (fused)."""
    from .sampling import random_module

    fma = random_module().fma

    acc = np.dtype(np.float32) if dt.itemsize < 4 else np.dtype(np.float64)
    lanes = 32 // dt.itemsize
    idx = np.arange(n, dtype=acc)
    first = np.full(n, start, dtype=acc)
    steps = np.full(n, step, dtype=acc)
    scalar = fma(steps, idx, first, acc)
    out = scalar.astype(dt)
    full = n - n % (2 * lanes)
    if full:
        i = np.arange(full)
        base = scalar[i - i % lanes].astype(dt).astype(acc)
        out[:full] = fma((i % lanes).astype(acc), steps[:full], base, acc).astype(dt)
    return out


def _endpoint(v: Any, fn: str, which: str, args: tuple[Any, ...]) -> float:
    """A start or end of torch.linspace / torch.logspace: a number, or a 0-d tensor (its value:
    `torch.logspace(torch.log10(smax), torch.log10(smin), steps=n)`), as PyTorch takes them."""
    if isinstance(v, Tensor):
        if v.ndim != 0:
            raise GradcliError(
                f"{fn} only supports 0-dimensional start and end tensors, but got {which} with "
                f"{v.ndim} dimension(s)."
            )
        v = v.item()
    if isinstance(v, np.generic) and v.dtype.kind in "biuf":
        v = v.item()
    if not isinstance(v, (bool, int, float)):
        from .sampling import _invalid_combination

        params = "int steps, float base = 10.0, " if fn == "logspace" else "int steps, "
        kw = (
            "*, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
            "torch.device device = None, bool pin_memory = False, bool requires_grad = False)"
        )
        overloads = "\n".join(
            f" * ({a} start, {b} end, {params}{kw}"
            for a, b in (("Tensor", "Tensor"), ("Number", "Tensor"), ("Tensor", "Number"))
        )
        raise _invalid_combination(
            fn, args, overloads + f"\n * (Number start, Number end, {params}{kw}"
        )
    return float(v) if isinstance(v, bool) else v


def linspace(
    start: float,
    end: float,
    steps: int,
    dtype: Any = None,
    requires_grad: bool = False,
    device: Any = None,
) -> Tensor:
    n = int_arg(steps, "steps")
    if n < 0:
        raise GradcliError("number of steps must be non-negative")
    size_check((n,), "linspace's length")
    s0 = _endpoint(start, "linspace", "start", (start, end, steps))
    s1 = _endpoint(end, "linspace", "end", (start, end, steps))
    dt = np.dtype(float_dtype(dtype, "linspace"))
    if n == 1:  # (ATen fills the one element with start, as fill_ converts it)
        dtypes.checked_scalar(s0, dt, 1)
        return new_tensor(_scalar_in(s0, dt).reshape(1), None, requires_grad)
    if n > 1:  # (the kernel takes both ends in the result's type first)
        if dt == np.bool_:
            raise GradcliError("\"linspace_cpu\" not implemented for 'Bool'").mirror(
                "NotImplementedError"
            )
        dtypes.checked_scalar(s0, dt)
        dtypes.checked_scalar(s1, dt)
        if dt.kind in "iu":  # its step in double from the ends as the integer type holds them
            s0, s1 = (float(_scalar_in(v, dt)) for v in (s0, s1))
    return new_tensor(_linspace(float(s0), float(s1), n, dt), None, requires_grad)


def _scalar_in(v: Any, dt: np.dtype) -> np.ndarray:
    """A number (already checked to fit) converted to dtype `dt` as c10 converts a Scalar:
    toward zero into an integer type, a negative int into an unsigned one modulo 2**bits."""
    if dt.kind in "iu" and not isinstance(v, int):
        v = math.trunc(v)
    if dt.kind in "iu":
        return np.array(v, dtype=np.int64 if dt.kind == "i" or v < 0 else np.uint64).astype(dt)
    if dt == BF16:
        return round_bf16(np.array(float(v)))
    with np.errstate(over="ignore", invalid="ignore"):
        return np.array(v).astype(dt)


def logspace(
    start: float,
    end: float,
    steps: int,
    base: float = 10.0,
    dtype: Any = None,
    requires_grad: bool = False,
    device: Any = None,
) -> Tensor:
    """`torch.logspace`: base ** (the exponents), as ATen's CPU kernel computes them: start
    and end in the result's dtype, their difference too; then in double the step (that
    difference / (steps - 1)), the first half's exponents start + step * i, the second's
    end - step * (steps - 1 - i), and libm's pow, rounded once to the dtype. One step is
    base ** start, start in double."""
    n = int_arg(steps, "steps")
    if n < 0:
        raise GradcliError("number of steps must be non-negative")
    size_check((n,), "logspace's length")
    dt = float_dtype(dtype, "logspace")
    s0 = float(_endpoint(start, "logspace", "start", (start, end, steps)))
    s1 = float(_endpoint(end, "logspace", "end", (start, end, steps)))
    i = np.arange(n, dtype=np.float64)
    if n == 1:
        exps = np.array([float(s0)])
    else:
        with np.errstate(over="ignore", invalid="ignore"):
            a, z = dt.type(s0), dt.type(s1)  # (a float32 or half result's kernel: its type)
            step = float(dt.type(z - a)) / (n - 1)
        exps = np.where(i < n // 2, float(a) + step * i, float(z) - step * (n - 1 - i))
    b = float(base)

    def power(e: float) -> float:  # libm's pow, as ATen's kernel calls it
        try:
            return math.pow(b, e)
        except OverflowError:
            return math.inf
        except ValueError:
            return math.nan

    values = np.fromiter(map(power, exps.tolist()), np.float64, n)
    with np.errstate(over="ignore"):
        return new_tensor(values.astype(dt), None, requires_grad)


def _linspace(start: float, end: float, n: int, dt: np.dtype) -> np.ndarray:
    """ATen's CPU linspace, bit for bit: step = (end - start) / (n - 1) in the dtype, the first
    half start + step * i and the second end - step * (n - 1 - i), each one fused multiply-add
    (the kernel is compiled with contraction)."""
    from .sampling import random_module

    fma = random_module().fma

    if n == 1:
        return np.array([start], dtype=dt)
    if dt == BF16:
        return _linspace_bf16(start, end, n)
    ct = dt if dt.kind == "f" and dt.itemsize >= 4 else np.dtype(np.float64)
    if dt.kind == "f" and dt.itemsize < 4:
        ct = np.dtype(np.float32)  # half computes in float (its accumulate type)
    s, e = ct.type(start), ct.type(end)
    with np.errstate(over="ignore", invalid="ignore"):
        step = ct.type((e - s) / ct.type(n - 1)) if n > 1 else ct.type(0)
        half = n // 2
        i = np.arange(n)
        first = fma(np.full(half, step, ct), i[:half].astype(ct), s, ct)
        second = fma(np.full(n - half, -step, ct), (n - 1 - i[half:]).astype(ct), e, ct)
    out = np.concatenate([first, second]).astype(ct, copy=False)
    if dt.kind in "iu":
        return np.trunc(out).astype(dt)
    return out.astype(dt)


def _linspace_bf16(start: float, end: float, n: int) -> np.ndarray:
    """ATen's linspace in bfloat16 (measured, 2.13: its scalar loop): every step in bfloat16
    arithmetic -- the ends, the step (end - start) / (n - 1), each product step * i and each
    sum rounded to bfloat16."""
    f32 = np.float32
    with np.errstate(over="ignore", invalid="ignore"):
        s, e = round_bf16(start).astype(f32), round_bf16(end).astype(f32)
        step = round_bf16(round_bf16(e - s).astype(f32) / f32(n - 1)).astype(f32)
        half = n // 2
        i = np.arange(n).astype(f32)
        first = round_bf16(s + round_bf16(step * i[:half]).astype(f32))
        second = round_bf16(e - round_bf16(step * (f32(n - 1) - i[half:])).astype(f32))
    return np.concatenate([first, second]).astype(BF16)


def _like(fill: Callable[..., Tensor]) -> Callable[..., Tensor]:
    def make(
        input: Any,
        *args: Any,
        dtype: Any = None,
        requires_grad: bool = False,
        device: Any = None,
        memory_format: Any = None,
    ) -> Tensor:
        input = tensor_param(input, fill.__name__ + "_like", "input", 1)
        layout = memory_format_arg(memory_format, fill.__name__ + "_like", input.shape)
        # As PyTorch: the input's dtype unless one is asked for.
        dt = input.dtype if dtype is None else check_dtype(dtype, fn=fill.__name__ + "_like")
        if args:
            made = fill(input.shape, *args, dtype=dt, requires_grad=requires_grad)
        else:
            made = fill(input.shape, dtype=dt, requires_grad=requires_grad)
        if layout == "preserve":
            from .sampling import laid_out_like

            made.data = laid_out_like(made.data, input.data)
        elif layout != "contiguous":
            made.data = in_format(made.data, layout)
        return made

    return make


zeros_like = _like(zeros)


ones_like = _like(ones)


empty_like = _like(empty)


_full_like = _like(full)


def full_like(
    input: Any,
    fill_value: Any,
    *,
    dtype: Any = None,
    requires_grad: bool = False,
    device: Any = None,
    memory_format: Any = None,
) -> Tensor:
    """`torch.full_like(x, 2.0)`, `torch.full_like(x, fill_value=2.0)` (a call without the
    value is PyTorch's TypeError, not the *args of the other `_like` constructors)."""
    return _full_like(
        input,
        fill_value,
        dtype=dtype,
        requires_grad=requires_grad,
        device=device,
        memory_format=memory_format,
    )
