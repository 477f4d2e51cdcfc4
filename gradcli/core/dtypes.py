"""PyTorch's dtypes on NumPy: which ones gradcli has, their torch names, PyTorch's type
promotion (`torch.result_type`), and the one check every `dtype=` argument goes through.

Only the dtypes in `TORCH_NAMES` exist for a program: nothing a program writes reaches
`np.dtype()` (a string like "O" or "U1000000" would make object or huge string arrays).

Promotion follows c10's `ResultTypeState`: the operands fall in three ranks -- tensors with
dimensions, 0-d tensors, Python numbers -- and a lower rank only changes the result when it is
of a higher category (bool < integer < floating). A Python float takes the default dtype, a
Python int int64, a bool bool. Within a category, types promote as `torch.promote_types`:
an integer with a float gives the float (int64 + float32 is float32, not NumPy's float64).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ..base.errors import GradcliError

# bfloat16 has no NumPy dtype: a bfloat16 tensor's array is float32 in the byte order this
# machine does not use (a NumPy dtype of its own: it is unequal to float32, NumPy computes
# with it as float32), holding only values bfloat16 has. `round_bf16` is the one place such
# values are made; `core.op.apply` computes an op of bfloat16 tensors in float32 and rounds
# its result there, as PyTorch's CPU kernels do, and refuses the ops that have no such rule.
BF16 = np.dtype(np.float32).newbyteorder(">" if sys.byteorder == "little" else "<")

# The dtypes a gradcli tensor can have, by their torch name.
TORCH_NAMES: dict[np.dtype, str] = {
    BF16: "bfloat16",
    np.dtype(np.float32): "float32",
    np.dtype(np.float64): "float64",
    np.dtype(np.float16): "float16",
    np.dtype(np.int64): "int64",
    np.dtype(np.int32): "int32",
    np.dtype(np.int16): "int16",
    np.dtype(np.int8): "int8",
    np.dtype(np.uint8): "uint8",
    np.dtype(np.uint16): "uint16",
    np.dtype(np.uint32): "uint32",
    np.dtype(np.uint64): "uint64",
    np.dtype(np.bool_): "bool",
    np.dtype(np.complex64): "complex64",
    np.dtype(np.complex128): "complex128",
}
# torch.X attribute names (aliases included) -> NumPy dtype.
BY_NAME: dict[str, np.dtype] = {
    **{name: dt for dt, name in TORCH_NAMES.items()},
    "float": np.dtype(np.float32),
    "double": np.dtype(np.float64),
    "half": np.dtype(np.float16),
    "long": np.dtype(np.int64),
    "int": np.dtype(np.int32),
    "short": np.dtype(np.int16),
    "cfloat": np.dtype(np.complex64),
    "cdouble": np.dtype(np.complex128),
}
# What `x.type()` answers, and what it accepts as a string.
LEGACY_TYPES: dict[np.dtype, str] = {
    np.dtype(np.float32): "torch.FloatTensor",
    np.dtype(np.float64): "torch.DoubleTensor",
    np.dtype(np.float16): "torch.HalfTensor",
    BF16: "torch.BFloat16Tensor",
    np.dtype(np.int64): "torch.LongTensor",
    np.dtype(np.int32): "torch.IntTensor",
    np.dtype(np.int16): "torch.ShortTensor",
    np.dtype(np.int8): "torch.CharTensor",
    np.dtype(np.uint8): "torch.ByteTensor",
    np.dtype(np.bool_): "torch.BoolTensor",
    np.dtype(np.complex64): "torch.ComplexFloatTensor",
    np.dtype(np.complex128): "torch.ComplexDoubleTensor",
    np.dtype(np.uint16): "torch.UInt16Tensor",
    np.dtype(np.uint32): "torch.UInt32Tensor",
    np.dtype(np.uint64): "torch.UInt64Tensor",
}
# Legacy names PyTorch also accepts for the half complex and unsigned types gradcli lacks.
UNSUPPORTED = ("chalf", "complex32")
# The unsigned dtypes wider than a byte: PyTorch 2.13 has them as "shell" dtypes, a few of its
# kernels only (`core.uintgate`).
WIDE_UNSIGNED = frozenset(np.dtype(t) for t in (np.uint16, np.uint32, np.uint64))

BOOL = np.dtype(np.bool_)
INT64 = np.dtype(np.int64)
FLOAT32 = np.dtype(np.float32)
FLOAT64 = np.dtype(np.float64)


# c10's ScalarType names, as PyTorch's kernel errors say them ("not implemented for 'Long'").
_SCALAR_TYPE = {
    "float32": "Float",
    "float64": "Double",
    "float16": "Half",
    "bfloat16": "BFloat16",
    "int64": "Long",
    "int32": "Int",
    "int16": "Short",
    "int8": "Char",
    "uint8": "Byte",
    "uint16": "UInt16",
    "uint32": "UInt32",
    "uint64": "UInt64",
    "bool": "Bool",
    "complex64": "ComplexFloat",
    "complex128": "ComplexDouble",
}


def _name(dt: np.dtype) -> str:
    dt = np.dtype(dt)
    return TORCH_NAMES.get(dt, dt.name)


def scalar_type_name(dt: np.dtype) -> str:
    return _SCALAR_TYPE.get(_name(dt), _name(dt))


# The element types with a legacy tensor class: `Tensor::toString()` names a CPU tensor of
# one of them "torch.FloatTensor", of any other "CPUBoolType", "CPUBFloat16Type"...
_LEGACY_CLASS = frozenset(("Byte", "Char", "Short", "Int", "Long", "Half", "Float", "Double"))


def type_string(dt: np.dtype) -> str:
    """A CPU tensor's type as PyTorch's `Tensor::toString()` says it in messages."""
    name = scalar_type_name(dt)
    return f"torch.{name}Tensor" if name in _LEGACY_CLASS else f"CPU{name}Type"


# C++'s names of the element types (caffe2's TypeMeta), as other PyTorch messages say them
# ("a gradient with dtype 'long int'").
_CPP_TYPE = {
    "float32": "float",
    "float64": "double",
    "float16": "c10::Half",
    "bfloat16": "c10::BFloat16",
    "int64": "long int",
    "int32": "int",
    "int16": "short int",
    "int8": "signed char",
    "uint8": "unsigned char",
    "uint16": "unsigned short",
    "uint32": "unsigned int",
    "uint64": "unsigned long",
    "bool": "bool",
    "complex64": "c10::complex<float>",
    "complex128": "c10::complex<double>",
}


def cpp_type_name(dt: np.dtype) -> str:
    return _CPP_TYPE.get(_name(dt), _name(dt))


# The names c10's `checked_convert` gives the element types in its overflow error.
_C10_CONVERT_NAME = {
    "float32": "float",
    "float64": "double",
    "float16": "c10::Half",
    "bfloat16": "c10::BFloat16",
    "int64": "int64_t",
    "int32": "int",
    "int16": "int16_t",
    "int8": "int8_t",
    "uint8": "uint8_t",
}
# The largest finite value of each floating type (bfloat16's is float32's exponent range).
_FLOAT_MAX = {
    "float16": 65504.0,
    "bfloat16": 3.3895313892515355e38,
    "float32": 3.4028234663852886e38,
}


def checked_scalar(value: Any, dt: np.dtype, numel: int | None = None) -> None:
    """A Python number given where a kernel takes a Scalar and converts it to the tensor's
    element type (fill_, full, masked_fill, index_fill, scatter's value, clamp's bounds,
    where's number): PyTorch's error when it does not fit, as c10's `checked_convert` decides.
    A Python int is an int64: an integer type takes it within its range (an unsigned one also
    takes negatives down to -max, wrapped); a floating type within its finite range. A Python
    float is a double: an infinity fits a floating type, a NaN no integer type; otherwise it
    must lie within the type's lowest and largest values. Converting to bool never fails.
    `numel`: the number of elements a fill writes (a number made a tensor, as `x[i] = v` and
    `torch.where(c, x, v)` make it, is one): ATen fills a one-element float16 or bfloat16
    tensor without the check (a value too large for it becomes inf)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (int, float, complex, np.number)
    ):
        return
    name = _name(dt)
    if numel == 1 and name in ("float16", "bfloat16"):
        return
    if name not in _C10_CONVERT_NAME:
        return
    if isinstance(value, (complex, np.complexfloating)):
        # a complex number into a real type: c10 refuses a nonzero imaginary part as an
        # overflow, and takes the real part within the type's range
        if value.imag != 0:
            raise GradcliError(
                f"value cannot be converted to type {_C10_CONVERT_NAME[name]} without overflow",
                hint="give a real number (z.real), or make the tensor complex first",
            )
        value = float(value.real)
    v = value.item() if isinstance(value, np.number) else value
    kind = np.dtype(dt).kind if name != "bfloat16" else "f"
    if kind in "iu":
        info = np.iinfo(np.dtype(dt))
        lo, hi = int(info.min), int(info.max)
    else:
        hi = _FLOAT_MAX.get(name, float("inf"))
        lo = -hi
    if isinstance(v, int):
        if kind == "u":
            bad = v > hi or (v < 0 and -v > hi)
        else:
            bad = v < lo or v > hi
    elif v != v:
        bad = kind in "iu"
    elif v in (float("inf"), float("-inf")) and kind == "f":
        bad = False
    else:
        bad = v < lo or v > hi
    if bad:
        raise GradcliError(
            f"value cannot be converted to type {_C10_CONVERT_NAME[name]} without overflow",
            hint="give a value the tensor's dtype can hold, or convert the tensor to a wider "
            "dtype first",
        )


def wrap_unsigned(value: Any, dt: Any) -> Any:
    """A negative Python integer stored into an unsigned type (`u[0] = -1`, `u.fill_(-1)`,
    `torch.full(..., -1, dtype=torch.uint8)`), its range checked first (`checked_scalar`: down
    to -max): c10 converts it through int64, wrapped modulo 2**bits (-1 -> 255 for uint8).
    Other values as they are."""
    if (
        isinstance(value, (int, np.integer))
        and not isinstance(value, (bool, np.bool_))
        and np.dtype(dt).kind == "u"
        and value < 0
    ):
        return int(value) % (1 << (8 * np.dtype(dt).itemsize))
    return value


def torch_name(dt: np.dtype) -> str:
    """`torch.float32` for float32, ...: how PyTorch prints a dtype."""
    return "torch." + _name(dt)


_F32 = np.dtype(np.float32)
_BF16_NAN = np.uint32(0x7FC00000)


def round_bf16(a: Any) -> np.ndarray:
    """Values as a bfloat16 array (dtype `BF16`): each taken as float32 first (as c10 converts a
    double), then rounded to the nearest bfloat16, ties to even, NaN as bfloat16's quiet NaN
    (c10's round_to_nearest_even). The one place bfloat16 values are made."""
    f = np.array(a, dtype=_F32, copy=True, ndmin=0)
    u = f.view(np.uint32)
    nan = f != f
    with np.errstate(over="ignore"):
        u += np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1))
    u &= np.uint32(0xFFFF0000)
    if nan.any():
        u[nan] = _BF16_NAN
    return f.astype(BF16)


# The operands made of Python floats the program wrote (`x * 0.1`, `torch.mul(x, 0.1)`:
# `ops.arithmetic.wrapped_number` while `PROGRAM_FLOAT[0]`, which the program's operators and
# torch.add / sub / mul / div set; the numbers of gradcli's own compositions, lerp's weight, a
# backward rule's, are PyTorch's C++ scalars, not its "wrapped numbers"), by id: a weak
# reference to each. PyTorch's forward-mode transforms promote by them (`core.forward`).
_PROGRAM: dict[int, Any] = {}
PROGRAM_FLOAT = [False]


class program_float:  # noqa: N801 - a context manager
    """While the program's own operation with a Python float runs (`PROGRAM_FLOAT`)."""

    __slots__ = ("was",)

    def __enter__(self) -> None:
        self.was = PROGRAM_FLOAT[0]
        PROGRAM_FLOAT[0] = True

    def __exit__(self, *exc: object) -> None:
        PROGRAM_FLOAT[0] = self.was


def mark_program_float(t: Any) -> None:
    """Remember that the operand `t` is a Python float the program wrote."""
    import weakref

    if len(_PROGRAM) >= 4096:  # the operands gone since
        for k in [k for k, r in _PROGRAM.items() if r() is None]:
            del _PROGRAM[k]
    _PROGRAM[id(t)] = weakref.ref(t)


def is_program_float(t: Any) -> bool:
    """Whether the operand `t` is a Python float the program wrote (`mark_program_float`)."""
    r = _PROGRAM.get(id(t))
    return r is not None and r() is t


def itemsize(dt: np.dtype) -> int:
    """Bytes per element as PyTorch counts them (2 for bfloat16, whose array holds float32)."""
    return 2 if dt == BF16 else int(dt.itemsize)


def settle_bf16(arr: np.ndarray) -> np.ndarray:
    """A bfloat16 array holding only bfloat16 values: an array made another way (NumPy's
    float32 conversion of a list, a float32 result cast) rounded in place, a read-only one
    copied. Values already bfloat16 are left as they are (rounding them changes nothing)."""
    exact = round_bf16(arr)
    if np.array_equal(exact, arr, equal_nan=True):
        return arr
    if not arr.flags.writeable:
        return exact
    arr[...] = exact
    return arr


def is_float(dt: np.dtype) -> bool:
    return dt.kind == "f"


def is_complex(dt: np.dtype) -> bool:
    return dt.kind == "c"


COMPLEX64 = np.dtype(np.complex64)
COMPLEX128 = np.dtype(np.complex128)


def to_complex(dt: np.dtype) -> np.dtype:
    """c10's toComplexType: the complex dtype of a float's precision (float16 and float32
    give complex64 here: gradcli has no complex32), a complex dtype as it is."""
    if dt.kind == "c":
        return dt
    return COMPLEX128 if dt == FLOAT64 else COMPLEX64


def to_real(dt: np.dtype) -> np.dtype:
    """c10's toRealValueType: float32 for complex64, float64 for complex128."""
    if dt.kind != "c":
        return dt
    return FLOAT64 if dt == COMPLEX128 else FLOAT32


def _category(dt: np.dtype) -> int:
    return 0 if dt.kind == "b" else 2 if dt.kind == "f" else 3 if dt.kind == "c" else 1


def promote_types(a: np.dtype, b: np.dtype) -> np.dtype:
    """`torch.promote_types`: a float with an integer or bool gives the float; bfloat16 with
    float16 gives float32, with float32 or float64 the wider."""
    if a == b:
        return a
    ca, cb = _category(a), _category(b)
    if ca == 3 or cb == 3:
        # a complex dtype with a float keeps the wider precision (float64 with complex64 is
        # complex128; float16 with complex64 is complex64), with an integer or bool the complex
        return np.promote_types(a, b) if ca >= 2 and cb >= 2 else (a if ca > cb else b)
    if ca != cb:
        return a if ca > cb else b
    if a in WIDE_UNSIGNED or b in WIDE_UNSIGNED:
        from ..base.errors import GradcliError

        raise (
            GradcliError(
                "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote "
                f"{scalar_type_name(a)} and {scalar_type_name(b)}",
                hint="convert one of them first: x.to(torch.int64)",
            )
            .mirror("RuntimeError")
            .pytorch()
        )
    if a == BF16 or b == BF16:
        other = b if a == BF16 else a
        return FLOAT64 if other == FLOAT64 else FLOAT32
    return np.promote_types(a, b)


def _combine(higher: np.dtype | None, lower: np.dtype | None) -> np.dtype | None:
    # c10's combine_categories: a lower rank counts only when its category is higher.
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher.kind == "c":
        return higher
    if lower.kind == "c":
        # a complex operand of a lower rank keeps a float's precision (c10: toComplexType)
        return to_complex(higher) if is_float(higher) else lower
    if is_float(higher):
        return higher
    if higher == BOOL or is_float(lower):
        return promote_types(higher, lower)
    return higher


def scalar_dtype(v: Any, default: np.dtype) -> np.dtype:
    """The dtype a Python number takes in an operation (a "wrapped number")."""
    if isinstance(v, (bool, np.bool_)):
        return BOOL
    if isinstance(v, (int, np.integer)):
        return INT64
    if isinstance(v, (complex, np.complexfloating)):
        return to_complex(default)
    return default


def result_type(operands: list[tuple[np.dtype, int | None]], default: np.dtype) -> np.dtype:
    """PyTorch's result dtype of an operation on `operands`: `(dtype, ndim)` of each tensor,
    `ndim` None for a Python number (whose dtype is `scalar_dtype`'s)."""
    dim: np.dtype | None = None
    zero: np.dtype | None = None
    wrapped: np.dtype | None = None
    for dt, nd in operands:
        if nd is None:
            wrapped = dt if wrapped is None else promote_types(wrapped, dt)
        elif nd == 0:
            zero = dt if zero is None else promote_types(zero, dt)
        else:
            dim = dt if dim is None else promote_types(dim, dt)
    out = _combine(dim, _combine(zero, wrapped))
    return default if out is None else out


# Python's own types a program may pass as a dtype (`dtype=float`), which PyTorch takes as
# torch.bool, torch.int64 and torch.float64: the language layer registers its objects for
# `bool`, `int` and `float` here (this layer cannot name them).
PYTHON_TYPES: list[tuple[Any, np.dtype]] = []


def python_type_dtype(v: Any) -> np.dtype | None:
    """The dtype PyTorch reads a program's `bool` / `int` / `float` as, else None."""
    for obj, dt in PYTHON_TYPES:
        if v is obj:
            return dt
    return None


def check_dtype(v: Any, what: str = "dtype", fn: str | None = None) -> np.dtype:
    """A `dtype=` argument as a NumPy dtype: PyTorch's dtypes (which calls pass as NumPy
    dtypes) and Python's bool, int and float (as PyTorch takes them) are accepted, with
    PyTorch's words for anything else."""
    if isinstance(v, np.dtype) and v in TORCH_NAMES:
        return v
    py = python_type_dtype(v)
    if py is not None:
        return py
    if isinstance(v, type) and issubclass(v, np.generic):
        dt = np.dtype(v)
        if dt in TORCH_NAMES:
            return dt
    where = f"{fn}(): " if fn else ""
    if isinstance(v, np.dtype):
        raise GradcliError(f"{where}dtype {v.name} is not supported by gradcli")
    raise GradcliError(
        f"{where}argument '{what}' must be torch.dtype, not {_type_name(v)}",
        expected="a torch dtype, e.g. torch.float32, torch.float64, torch.int64, torch.bool",
    ).mirror("TypeError")


def _type_name(v: Any) -> str:
    if v is None:
        return "NoneType"
    named = getattr(type(v), "program_typename", None)  # a program's value: its Python name
    return named(v) if callable(named) else type(v).__name__
