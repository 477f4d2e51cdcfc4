"""`numpy` as programs use it beside torch: `np.array(...)` makes a NumPy array with NumPy's
dtypes (float64 for Python floats, int64 for ints), which `torch.tensor` / `torch.from_numpy`
turn into a tensor of that dtype, as PyTorch does; the constructors (`zeros`, `ones`, `arange`,
`linspace`, `eye`) make arrays too. The functions (`np.exp`, `np.sum`, `np.dot`...) compute
with NumPy on arrays, numbers and lists, and call torch's function on a tensor (what gradcli
has always done: `np.exp(t)` is a tensor, as PyTorch's `__array_wrap__` makes it).

Every array is sized before it is made (the tensor element limit), and only the dtypes gradcli
has tensors for exist.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..core.dtypes import FLOAT64, INT64, check_dtype
from ..core.tensor import Tensor, data_array, grad_enabled, numpy_data, typename
from ..ops.arithmetic import size_check
from ..surface import args as S
from .ndinterop import (
    COPY_WARNING,
    NOT_A_TENSOR,
    no_meta_array,
    numpy_warning,
    tensor_array,
    wrapped,
)
from .values import PyType

# `np.ndarray` (isinstance, type(a) == np.ndarray); not callable, as programs never call it.
ARRAY_TYPE = PyType("ndarray", (np.ndarray,), None, shown="numpy.ndarray")


# NumPy takes Python's types as dtypes: `np.zeros(n, dtype=bool)`, `dtype=int`, `dtype=float`.
_PYTHON_DTYPES = {
    bool: np.dtype(np.bool_),
    int: np.dtype(np.int64),
    float: FLOAT64,
    complex: np.dtype(np.complex128),
}


def _dtype(dtype: Any, fn: str) -> np.dtype | None:
    if isinstance(dtype, PyType) and len(dtype.types) == 1 and dtype.types[0] in _PYTHON_DTYPES:
        return _PYTHON_DTYPES[dtype.types[0]]
    if isinstance(dtype, str):
        from .pyobjects import named_dtype

        return named_dtype(dtype, fn)
    return None if dtype is None else check_dtype(dtype, fn=f"numpy.{fn}")


def to_array(data: Any, dtype: Any = None, fn: str = "array") -> np.ndarray:
    """`np.array(data)`: a new array; a tensor's values (refused for one that requires grad,
    as NumPy's conversion calls `.numpy()`)."""
    dt = _dtype(dtype, fn)
    if isinstance(data, Tensor):
        no_meta_array(data)
        if data.requires_grad and grad_enabled():  # under no_grad PyTorch converts it
            raise GradcliError(NOT_A_TENSOR)
        if fn == "array":
            numpy_warning(COPY_WARNING)
        return data.data.astype(data.dtype if dt is None else dt, copy=True)
    if isinstance(data, np.ndarray):
        return np.array(numpy_data(data), dtype=dt, copy=True)
    read = _tensors_read(data)
    if read is not None:
        try:
            return np.array(read, dtype=dt)
        except ValueError as e:
            raise GradcliError(str(e)).mirror("ValueError") from None
    try:
        return data_array(data, dt, float_dtype=FLOAT64)
    except GradcliError as e:
        # The nested-list reader words its refusals as torch.tensor does: np.array's are NumPy's.
        if e.message.startswith("expected sequence of length"):
            raise GradcliError(
                "setting an array element with a sequence. The requested array has an "
                "inhomogeneous shape",
                hint="every row of a nested list must have the same length",
            ).mirror("ValueError") from None
        if "'str'" in e.message:
            raise GradcliError(
                f"numpy.{fn}() of text: gradcli's NumPy arrays hold numbers (no str dtype)",
                expected="numbers, or nested lists of numbers",
            ) from None
        raise


def _tensors_read(data: Any) -> Any:
    """A list (or tuple) holding tensors with numbers, as NumPy reads it: each tensor its
    values (`t.numpy()`, refused for one that requires grad while grad mode is on); None when
    it holds no tensor, or anything but numbers, arrays, tensors and lists of them."""
    if not isinstance(data, (list, tuple)):
        return None
    found = False
    todo = [(data, 0)]
    seen = 0
    while todo:
        item, depth = todo.pop()
        seen += 1
        limits.LIST_ITEMS.check(seen, "the items of the list given to NumPy")
        if isinstance(item, Tensor):
            found = True
        elif isinstance(item, (list, tuple)):
            limits.NESTING.check(depth + 1, "the nesting of the list given to NumPy")
            todo.extend((x, depth + 1) for x in item)
        elif isinstance(item, bool) or not isinstance(item, (int, float, np.generic, np.ndarray)):
            return None
    if not found:
        return None

    def read(v: Any) -> Any:
        if isinstance(v, Tensor):
            return tensor_array(v)
        if isinstance(v, (list, tuple)):
            return [read(x) for x in v]
        return v

    out = read(data)
    size = sum(int(v.size) for v in _leaves(out)) if out else 0
    size_check((size,), "the array made of the list")
    return out


def _leaves(v: Any) -> list:
    return (
        [v]
        if isinstance(v, np.ndarray)
        else [x for y in v for x in _leaves(y)]
        if isinstance(v, list)
        else []
    )


def asarray(a: Any, dtype: Any = None) -> np.ndarray:
    """`np.asarray`: an array of the dtype asked is returned as it is; a tensor of that dtype
    gives its own memory (`t.numpy()`: a change through either is seen in the other)."""
    if isinstance(a, np.ndarray) and (dtype is None or _dtype(dtype, "asarray") == a.dtype):
        return a
    if isinstance(a, Tensor) and (dtype is None or _dtype(dtype, "asarray") == a.dtype):
        return tensor_array(a)
    return to_array(a, dtype, "asarray")


def _laid_out(order: str, fn: str) -> Callable[..., np.ndarray]:
    """`np.ascontiguousarray(a)` / `np.asfortranarray(a)`: the array itself when it is laid
    out so already, else a copy that is (at least one dimension)."""

    def make(a: Any, dtype: Any = None) -> np.ndarray:
        arr = asarray(a, dtype)
        if arr.dtype == object or arr.dtype.kind not in "biufc":
            raise NotSupported(
                f"numpy.{fn}() of an array of {arr.dtype} is not supported by gradcli",
                hint="give it an array of numbers",
            )
        size_check(arr.shape, f"the result of numpy.{fn}()")
        return np.ascontiguousarray(arr) if order == "C" else np.asfortranarray(arr)

    make.__name__ = fn
    return make


def _filled(value: int, fn: str) -> Callable[..., np.ndarray]:
    def make(shape: Any, dtype: Any = None) -> np.ndarray:
        dims = S.shape_arg((shape,) if not isinstance(shape, (tuple, list)) else tuple(shape))
        return np.full(dims, value, dtype=_dtype(dtype, fn) or FLOAT64)

    make.__name__ = fn
    return make


def full(shape: Any, fill_value: Any, dtype: Any = None) -> np.ndarray:
    """`np.full(shape, value, dtype=None)`: NumPy's dtype of the value when none is given (an
    int gives int64, a float float64, a bool bool)."""
    dims = S.shape_arg((shape,) if not isinstance(shape, (tuple, list)) else tuple(shape))
    if isinstance(fill_value, np.generic):
        fill_value = fill_value.item()
    if not isinstance(fill_value, (bool, int, float, complex)):
        raise GradcliError(
            f"numpy.full: fill_value must be a number, not {typename(fill_value)}",
            hint="give one number: np.full((2, 3), 0.5)",
        )
    dt = _dtype(dtype, "full") or np.asarray(fill_value).dtype
    return np.full(dims, fill_value, dtype=dt)


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = None) -> np.ndarray:
    if stop is None:
        start, stop = 0, start
    for v in (start, stop, step):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise GradcliError(f"arange() arguments must be numbers, not {typename(v)}").mirror(
                "TypeError"
            )
        if not math.isfinite(v):
            raise GradcliError("arange: cannot compute length").mirror("ValueError")
    if step == 0:
        raise GradcliError("Maximum allowed size exceeded").mirror("ValueError")
    n = max(0, math.ceil((stop - start) / step))
    size_check((n,), "arange's length")
    ints = all(isinstance(v, int) for v in (start, stop, step))
    dt = _dtype(dtype, "arange") or (INT64 if ints else FLOAT64)
    return np.arange(start, stop, step, dtype=dt)


def linspace(
    start: Any,
    stop: Any,
    num: Any = 50,
    endpoint: Any = True,
    retstep: Any = False,
    dtype: Any = None,
) -> Any:
    """`np.linspace(start, stop, num, endpoint=, retstep=, dtype=)`: NumPy's own samples
    (`endpoint=False` leaves `stop` out: num steps of (stop - start) / num); with `retstep`
    the tuple (samples, step)."""
    n = S.int_arg(num, "num")
    if n < 0:
        raise GradcliError(f"Number of samples, {n}, must be non-negative.").mirror("ValueError")
    size_check((n,), "linspace's length")
    for v in (start, stop):
        if isinstance(v, np.generic) and v.dtype.kind in "iuf":
            continue  # a NumPy scalar (np.pi * k): NumPy takes it as the number it is
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise GradcliError(f"linspace() takes numbers, not {typename(v)}").mirror("TypeError")
    out = np.linspace(
        float(start),
        float(stop),
        n,
        endpoint=bool(endpoint),
        retstep=bool(retstep),
        dtype=_dtype(dtype, "linspace") or FLOAT64,
    )
    if retstep:
        from .values import numpy_number

        samples, step = out
        return samples, numpy_number(step)  # (NumPy's float64 scalar)
    return out


def eye(n: Any, m: Any = None, dtype: Any = None) -> np.ndarray:
    shape = S.shape_arg((n, n if m is None else m))
    return np.eye(shape[0], shape[1], dtype=_dtype(dtype, "eye") or FLOAT64)


def _value(out: np.ndarray) -> Any:
    """NumPy's result: a 0-d result is a number (a NumPy float32 for float32)."""
    from .values import numpy_number

    return numpy_number(out)


def _operand(v: Any, fn: str) -> np.ndarray:
    if isinstance(v, np.ndarray):
        return numpy_data(v)
    if isinstance(v, np.generic) and v.dtype.kind in "biuf":
        return np.asarray(v)
    if isinstance(v, (int, float, list, tuple)) and not isinstance(v, bool):
        return to_array(v, fn=fn)
    raise GradcliError(f"numpy.{fn}() takes arrays, numbers or lists, not {typename(v)}").mirror(
        "TypeError"
    )


def _float(a: np.ndarray) -> np.ndarray:
    # NumPy's ufuncs compute an integer or bool array in float64.
    return a if a.dtype.kind in "fc" else a.astype(FLOAT64)


def host_function(name: str, np_fn: Any) -> Any:
    """NumPy's function of this name as the program's computation runs it: those whose bits
    depend on the processor's kernels with the host's own (`hostnumpy`), the rest here."""

    def run(*args: Any, **kwargs: Any) -> Any:
        # (imported at the call: the tables built at import name these functions, and a
        # program without NumPy computations need not load `hostnumpy`)
        from .hostnumpy import NAMES, compute

        return compute(name, *args, **kwargs) if name in NAMES else np_fn(*args, **kwargs)

    return run


def _unary(name: str, torch_fn: Callable[..., Any]) -> Callable[..., Any]:
    """`np.exp(x)`: NumPy's own on an array, a number or a list, and on a tensor's values
    (NumPy's float32 exp, tanh, sin... are not torch's: they differ in the last bit on many
    inputs), made a tensor again as PyTorch's `__array_wrap__` does."""
    np_fn = host_function(name, getattr(np, name))  # (its float loops: the host's kernels)

    def call(x: Any, out: Any = None) -> Any:
        if out is not None:
            return _unary_into(getattr(np, name), x, out, name)
        if isinstance(x, Tensor):
            with np.errstate(all="ignore"):
                return wrapped(np_fn(tensor_array(x)))
        a = _complex_operand(x) if _is_complex(x) else _operand(x, name)
        with np.errstate(all="ignore"):
            return _value(np_fn(a))

    call.__name__ = name
    return call


def _unary_into(np_fn: Any, x: Any, out: Any, name: str) -> Any:
    """`np.sin(a, out=b)`: NumPy's result written into the array b (an array a tensor shares
    its memory with: `t.numpy()`, so the tensor changes too, as the custom-op tutorials'
    kernels write their results); b itself is the value, as NumPy returns it."""
    if not isinstance(out, np.ndarray):
        raise GradcliError("return arrays must be of ArrayType").mirror("TypeError")
    a = (
        tensor_array(x)
        if isinstance(x, Tensor)
        else (_complex_operand(x) if _is_complex(x) else _operand(x, name))
    )
    from .hostnumpy import UFUNCS, compute

    try:
        with np.errstate(all="ignore"):
            if name in UFUNCS and a.dtype == out.dtype and a.shape == out.shape:
                out[...] = compute(name, a)  # (the host's own kernels, written into b)
            else:
                np_fn(a, out=out)
    except (TypeError, ValueError) as e:
        raise GradcliError(str(e)).mirror(
            "TypeError" if isinstance(e, TypeError) else "ValueError"
        ) from None
    return out


def _is_complex(v: Any) -> bool:
    return isinstance(v, (complex, np.complexfloating)) or (
        isinstance(v, np.ndarray) and v.dtype.kind == "c"
    )


def _complex_operand(v: Any) -> np.ndarray:
    """A complex array or number for NumPy's elementwise functions (exp, abs, angle...: their
    complex results, as NumPy's)."""
    return numpy_data(v) if isinstance(v, np.ndarray) else np.asarray(v)


def _complex_part(name: str) -> Callable[..., Any]:
    """`np.real(a)`, `np.imag`, `np.conj`, `np.angle`: NumPy's on arrays and numbers, real or
    complex (a tensor is refused: torch.real(t), t.angle() say what PyTorch computes)."""
    np_fn = host_function(name, getattr(np, name))  # (angle: arctan2, the host's kernels)
    torch_name = "conj" if name == "conjugate" else name

    def call(x: Any) -> Any:
        if isinstance(x, Tensor):
            raise NotSupported(
                f"numpy.{name}() of a tensor is not supported by gradcli",
                hint=f"write torch.{torch_name}(t), or call numpy.{name}() on t.numpy()",
            )
        a = _complex_operand(x) if _is_complex(x) else _operand(x, name)
        return _value(np.asarray(np_fn(a)))

    call.__name__ = name
    return call


def _reduction(name: str, torch_fn: Callable[..., Any]) -> Callable[..., Any]:
    """`np.sum(a, axis=None)` / `np.mean`: NumPy's dtypes (the mean of integers is a float64,
    their sum an int64)."""

    def call(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        if isinstance(a, Tensor):
            # NumPy calls the tensor's method with its own keywords (`t.sum(axis=None,
            # out=None)`), which PyTorch's parser refuses
            if dtype is not None:
                raise _method_refusal(f"{name}(): argument 'dtype' must be torch.dtype, not type")
            raise _method_refusal(f"{name}() got an unexpected keyword argument 'axis'")
        arr = _operand(a, name)
        dt = _dtype(dtype, name)
        if dt is not None:
            arr = arr.astype(dt)
        elif name == "mean":
            arr = _float(arr)
        elif arr.dtype.kind in "bi" and arr.dtype != INT64:
            arr = arr.astype(INT64)
        ax = S.dims_arg(axis, arr.ndim)
        return _value(getattr(np, name)(arr, axis=ax, keepdims=bool(keepdims)))

    call.__name__ = name
    return call


def _binary(name: str, torch_fn: Callable[..., Any]) -> Any:
    """`np.dot(a, b)` / `np.matmul`: NumPy's own on arrays, numbers, lists and tensors' values
    (a 0-d operand scales the other); matmul, a ufunc, makes its result on a tensor a tensor
    (`Tensor.__array_wrap__`), dot gives NumPy's."""

    def call(a: Any, b: Any) -> Any:
        tensors = isinstance(a, Tensor) or isinstance(b, Tensor)
        x = tensor_array(a) if isinstance(a, Tensor) else _operand(a, name)
        y = tensor_array(b) if isinstance(b, Tensor) else _operand(b, name)
        if tensors and name == "dot":
            numpy_warning(COPY_WARNING)
        if (x.ndim == 0 or y.ndim == 0) and name == "dot":
            return _value(np.multiply(x, y, dtype=np.promote_types(x.dtype, y.dtype)))
        from .npmatmul import numpy_matmul

        out = numpy_matmul(x, y, name)
        return wrapped(out) if tensors and name == "matmul" else out

    call.__name__ = name
    return call


def _ufunc(name: str, torch_fn: Callable[..., Any]) -> Any:
    """`np.add(a, b)`, `np.multiply(a, b, out=a)`...: NumPy's on arrays, numbers, lists and
    tensors' values (Python numbers are "weak", as in NumPy 2), a tensor again when a tensor
    was given (`Tensor.__array_wrap__`), written into `out` when given (an array a tensor
    shares its memory with changes the tensor too)."""
    np_fn = getattr(np, name)
    host = host_function(name, np_fn)

    def operand(v: Any) -> Any:
        if isinstance(v, Tensor):
            return tensor_array(v)
        if isinstance(v, (bool, int, float)):
            return v
        return _operand(v, name)

    def call(a: Any, b: Any, out: Any = None) -> Any:
        tensors = isinstance(a, Tensor) or isinstance(b, Tensor)
        x, y = operand(a), operand(b)
        try:
            shape = np.broadcast_shapes(np.shape(x), np.shape(y))
        except ValueError:
            raise GradcliError(
                f"operands could not be broadcast together with shapes {np.shape(x)} {np.shape(y)}"
            ).mirror("ValueError") from None
        size_check(shape, f"the result of numpy.{name}()")
        if out is not None and not isinstance(out, np.ndarray):
            raise GradcliError("return arrays must be of ArrayType").mirror("TypeError")
        try:
            with np.errstate(all="ignore"):
                result = host(x, y) if out is None else np_fn(x, y, out=out)
        except (TypeError, ValueError) as e:
            raise GradcliError(str(e)).mirror(
                "TypeError" if isinstance(e, TypeError) else "ValueError"
            ) from None
        if out is not None:
            return out
        if tensors:
            return wrapped(result)
        return _value(numpy_data(np.asarray(result)))

    call.__name__ = name
    return call


def _on_arrays(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """A NumPy function gradcli gives for arrays, numbers and lists (a tensor is refused: its
    method says what PyTorch computes)."""

    def call(a: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(a, Tensor):
            return _tensor_method(name, fn, a, args, kwargs)
        return fn(_operand(a, name), *args, **kwargs)

    call.__name__ = name
    return call


def _method_refusal(words: str) -> GradcliError:
    return GradcliError(
        words, hint="call the tensor's own method (x.sum()), or np.sum(x.detach().numpy())"
    ).mirror("TypeError")


# The NumPy functions that call a tensor's method of their name with NumPy's keywords, which
# PyTorch's parser refuses (`np.max(t)`: `t.max(axis=None, out=None)`).
_PARSER_REFUSED = ("max", "min", "prod", "std", "var")
# Those whose method call fails with a TypeError NumPy catches: it computes on the tensor's
# values (`t.numpy()`) and makes the result a tensor (`Tensor.__array_wrap__`).
_WRAPPED_METHODS = ("argmax", "argmin", "cumsum", "clip", "argsort", "argpartition", "transpose")
# Those that read the tensor as an array: NumPy's array.
_ARRAY_RESULTS = ("sort", "ravel")


def _tensor_method(name: str, fn: Callable[..., Any], t: Tensor, args: tuple, kwargs: dict) -> Any:
    """`np.max(t)`, `np.argmax(t)`, `np.squeeze(t)`...: what NumPy makes of a tensor, as
    it dispatches a function of this kind to the object's own method."""
    if name in _PARSER_REFUSED:
        axis = args[0] if args else kwargs.get("axis")
        if name in ("std", "var"):
            from ..surface.callerrors import _invalid_combination

            # (the keywords NumPy passes, in the order PyTorch's parser lists them)
            given = {"axis": axis, "out": None, "dtype": None, "ddof": kwargs.get("ddof", 0)}
            options = [
                "(tuple of ints dim, bool unbiased = True, bool keepdim = False)",
                "(tuple of ints dim = None, *, Number correction = None, bool keepdim = False)",
                "(bool unbiased = True)",
            ]
            words = _invalid_combination(name, options, [], given)
            if words is not None and len(args) <= 1 and set(kwargs) <= {"axis", "ddof"}:
                raise _method_refusal(words)
        elif len(args) <= 1 and set(kwargs) <= {"axis"}:
            if axis is None:
                raise _method_refusal(f"{name}(): argument 'dim' must be int, not NoneType")
            raise _method_refusal(f"{name}() got an unexpected keyword argument 'axis'")
    elif name in _WRAPPED_METHODS:
        arr = tensor_array(t)
        with np.errstate(all="ignore"):
            return wrapped(np.asarray(fn(arr, *args, **kwargs)), warn=False)
    elif name in _ARRAY_RESULTS:
        return fn(tensor_array(t), *args, **kwargs)
    elif name == "squeeze" and not kwargs and len(args) <= 1:
        return t.squeeze() if not args or args[0] is None else t.squeeze(args[0])
    raise GradcliError(
        f"numpy.{name}() of a tensor is not supported by gradcli",
        hint=f"use the tensor's own method (x.{name}(...)), or x.numpy() first",
    )


def _rounded(torch_round: Callable[..., Any]) -> Callable[..., Any]:
    """`np.round(a, 3)` (printing a result rounded): NumPy's on arrays, numbers, lists and a
    tensor's values (halves to even, as NumPy), a tensor again for a tensor."""
    from .pyobjects import ARRAY_METHODS

    def call(a: Any, decimals: Any = 0) -> Any:
        if isinstance(a, Tensor):
            # (NumPy asks `t.round(decimals=, out=None)`, which PyTorch's parser refuses, and
            # rounds the tensor's values itself)
            out = ARRAY_METHODS["round"](tensor_array(a), decimals)
            return wrapped(np.asarray(out), warn=False)
        return _value(np.asarray(ARRAY_METHODS["round"](_operand(a, "round"), decimals)))

    call.__name__ = "round"
    return call


def _array_method(name: str) -> Callable[..., Any]:
    from .pyobjects import ARRAY_METHODS

    return _on_arrays(name, ARRAY_METHODS[name])


def _sort_function() -> Callable[..., Any]:
    from .pyobjects import _array_sorted

    return _on_arrays("sort", _array_sorted)


def _joined(name: str) -> Callable[..., Any]:
    """np.concatenate / stack / hstack / vstack / column_stack / dstack of arrays, numbers and
    lists, sized first."""

    def call(arrays: Any, axis: Any = 0) -> Any:
        if not isinstance(arrays, (list, tuple)) or not arrays:
            raise GradcliError("need at least one array to concatenate").mirror("ValueError")
        # (a tensor is read as NumPy reads it: `t.numpy()`)
        parts = [tensor_array(a) if isinstance(a, Tensor) else _operand(a, name) for a in arrays]
        size_check((sum(int(p.size) for p in parts) or 0,), f"the result of numpy.{name}()")
        kwargs = (
            {}
            if name in ("hstack", "vstack", "column_stack", "row_stack", "dstack")
            else {"axis": S.int_arg(axis, "axis")}
        )
        try:
            return getattr(np, name)(parts, **kwargs)
        except (ValueError, np.exceptions.AxisError) as e:
            kind = "AxisError" if isinstance(e, np.exceptions.AxisError) else "ValueError"
            raise GradcliError(str(e)).mirror(kind) from None

    call.__name__ = name
    return call


def _where(cond: Any, x: Any = None, y: Any = None) -> Any:
    if x is None and y is None:
        # `np.where(labels == 0)`: the indices where the condition holds, one array per axis
        # (np.nonzero); a tensor condition is read as NumPy reads it (`.numpy()`).
        c = to_array(cond, fn="where") if isinstance(cond, Tensor) else _operand(cond, "where")
        if c.ndim == 0:
            raise GradcliError(
                "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
                "instead. If the context of this error is of the form `arr[nonzero(cond)]`, just "
                "use `arr[cond]`."
            ).mirror("ValueError")
        return np.nonzero(c)
    if x is None or y is None:
        raise GradcliError("either both or neither of x and y should be given").mirror("ValueError")
    if any(isinstance(v, Tensor) for v in (cond, x, y)):
        raise GradcliError(
            "numpy.where() with tensors is not supported by gradcli", hint="use torch.where"
        )
    c, a, b = (
        v if isinstance(v, (bool, int, float)) else _operand(v, "where") for v in (cond, x, y)
    )
    size_check(np.broadcast_shapes(np.shape(c), np.shape(a), np.shape(b)), "np.where's result")
    return np.where(c, a, b)


def _allclose(a: Any, b: Any, rtol: Any = 1e-5, atol: Any = 1e-8) -> bool:
    # (a tensor is read as NumPy reads it: `t.numpy()`)
    x = tensor_array(a) if isinstance(a, Tensor) else _operand(a, "allclose")
    y = tensor_array(b) if isinstance(b, Tensor) else _operand(b, "allclose")
    size_check(np.broadcast_shapes(x.shape, y.shape), "np.allclose's comparison")
    return bool(np.allclose(x, y, rtol=float(rtol), atol=float(atol)))


def _shape(a: Any) -> Any:
    """`np.shape(a)`: a tensor's is its torch.Size (NumPy reads `a.shape`), an array's its
    shape, and a number's or a list's that of the array NumPy makes of it."""
    if isinstance(a, Tensor):
        from ..surface.printing import Size

        return Size(a.shape)
    return np.shape(a) if isinstance(a, np.ndarray) else _operand(a, "shape").shape


def _corrcoef(x: Any, y: Any = None, rowvar: Any = True) -> np.ndarray:
    """`np.corrcoef(x, y)`: Pearson's correlation matrix of the rows (or columns) of the
    arrays; a tensor that needs no gradient is read as NumPy reads it (`.numpy()`)."""

    def operand(v: Any) -> np.ndarray:
        if isinstance(v, Tensor):
            return to_array(v, fn="corrcoef")
        return _operand(v, "corrcoef")

    a = operand(x)
    b = None if y is None else operand(y)
    parts = [a] if b is None else [a, b]
    n = sum(int(m.shape[0] if bool(rowvar) else m.shape[-1]) if m.ndim == 2 else 1 for m in parts)
    size_check((n, n), "the result of numpy.corrcoef()")
    # n * n dot products of the observations: checked before NumPy does them
    limits.LINALG_WORK.check(n * sum(int(m.size) for m in parts), "the work of numpy.corrcoef()")
    with np.errstate(all="ignore"):
        try:
            from .hostnumpy import compute  # (BLAS: the host's own kernels)

            return compute("corrcoef", a, b, rowvar=bool(rowvar))
        except ValueError as e:
            raise GradcliError(str(e)).mirror("ValueError") from None


def functions(torch_functions: dict[str, Callable[..., Any]]) -> dict[str, Callable[..., Any]]:
    """The members of the `numpy` namespace, from torch's functions of the same names."""
    out: dict[str, Callable[..., Any]] = {
        "array": to_array,
        "asarray": asarray,
        "ascontiguousarray": _laid_out("C", "ascontiguousarray"),
        "asfortranarray": _laid_out("F", "asfortranarray"),
        "zeros": _filled(0, "zeros"),
        "ones": _filled(1, "ones"),
        "full": full,
        "arange": arange,
        "linspace": linspace,
        "eye": eye,
    }
    for name in ("exp", "log", "sqrt", "tanh", "sin", "cos", "abs"):
        out[name] = _unary(name, torch_functions[name])
    for name in ("sum", "mean"):
        out[name] = _reduction(name, torch_functions[name])
    for name, torch_name in (
        ("add", "add"),
        ("subtract", "sub"),
        ("multiply", "mul"),
        ("divide", "div"),
        ("maximum", "maximum"),
        ("minimum", "minimum"),
        ("power", "pow"),
    ):
        out[name] = _ufunc(name, torch_functions[torch_name])
    for name in ("std", "var", "max", "min", "argmax", "argmin", "prod", "cumsum", "ravel"):
        out[name] = _array_method(name)
    out["clip"] = _array_method("clip")
    out["argsort"] = _array_method("argsort")
    out["argpartition"] = _array_method("argpartition")
    out["sort"] = _sort_function()
    out["squeeze"] = _array_method("squeeze")
    out["transpose"] = _array_method("transpose")
    out["square"] = _unary("square", None)
    for name in ("real", "imag", "conj", "conjugate", "angle"):
        out[name] = _complex_part(name)
    out["round"] = out["around"] = _rounded(torch_functions["round"])
    for name in ("concatenate", "stack", "hstack", "vstack", "column_stack", "dstack"):
        out[name] = _joined(name)
    out["where"] = _where
    out["shape"] = _shape
    out["corrcoef"] = _corrcoef
    out["allclose"] = _allclose
    out["dot"] = _binary("dot", torch_functions["dot"])
    out["matmul"] = _binary("matmul", torch_functions["matmul"])
    return out
