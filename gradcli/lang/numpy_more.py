"""More of `numpy` as tutorials and answers use it (fixnumpy41): index arithmetic
(`np.unravel_index(np.argmax(a), a.shape)`), contractions (`np.tensordot`, `np.inner`),
broadcasting (`np.broadcast_to`, `np.broadcast_arrays`), index grids (`np.tril_indices`,
`np.indices`), in-place helpers (`np.put_along_axis`, `np.fill_diagonal`, `np.copyto`), the
polynomial helpers, type queries (`np.iscomplexobj`, `np.isscalar`) and NumPy 2's alias names.

As in `numpy_extra`: every argument is a number, an array, a list of numbers or a plain value
before NumPy sees it, a tensor operand is refused with the tensor's way as the hint, and every
result is sized (the tensor element limit) and every contraction's work bounded
(`limits.LINALG_WORK`) before NumPy computes it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..core.tensor import Tensor, typename
from ..ops.arithmetic import size_check
from .numpy_extra import _array, _int, _number, _numpy, _plain_value


def _count(shape: tuple) -> int:
    n = 1
    for d in shape:
        n *= max(int(d), 0)
    return n


def _shape(v: Any, what: str, fn: str) -> tuple:
    """A shape given as an int or a tuple/list of ints (at most 64 of them)."""
    items = v if isinstance(v, (tuple, list)) else (v,)
    if len(items) > 64:
        raise GradcliError(f"numpy.{fn}(): {what} has over 64 dimensions").mirror("ValueError")
    return tuple(_int(d, what) for d in items)


def _axes_list(v: Any) -> list[int]:
    return [_int(a, "axes") for a in (v if isinstance(v, (tuple, list)) else (v,))]


def _tensordot(a: Any, b: Any, axes: Any = 2) -> Any:
    """`np.tensordot(a, b, axes)`: the sum of products over the paired axes (an int n: the
    last n of a with the first n of b)."""
    x, y = _array(a, "tensordot"), _array(b, "tensordot")
    if isinstance(axes, (list, tuple)):
        if len(axes) != 2:
            raise GradcliError("axes must consist of two sequences").mirror("ValueError")
        ax_a, ax_b = _axes_list(axes[0]), _axes_list(axes[1])
    else:
        n = _int(axes, "axes")
        if n < 0 or n > min(x.ndim, y.ndim):
            return _numpy(lambda: np.tensordot(x, y, n))  # (NumPy's words: nothing computed)
        ax_a, ax_b = list(range(x.ndim - n, x.ndim)), list(range(n))
    try:
        free_a = [d for i, d in enumerate(x.shape) if i not in {k % x.ndim for k in ax_a}]
        free_b = [d for i, d in enumerate(y.shape) if i not in {k % y.ndim for k in ax_b}]
        summed = _count(tuple(x.shape[k] for k in ax_a))
    except (IndexError, ZeroDivisionError):
        free_a, free_b, summed = [], [], 0  # (out of range: NumPy's error below)
    out = tuple(free_a + free_b)
    size_check(out, "the result of numpy.tensordot()")
    limits.LINALG_WORK.check(_count(out) * max(summed, 1), "the work of numpy.tensordot()")
    return _host("tensordot", x, y, axes=(ax_a, ax_b))


def _inner(a: Any, b: Any) -> Any:
    """`np.inner(a, b)`: the sums of products over the last axes (a number scales)."""
    x, y = _array(a, "inner"), _array(b, "inner")
    if x.ndim == 0 or y.ndim == 0:
        size_check(x.shape or y.shape, "the result of numpy.inner()")
        return _numpy(lambda: np.inner(x, y))
    out = x.shape[:-1] + y.shape[:-1]
    size_check(out, "the result of numpy.inner()")
    limits.LINALG_WORK.check(_count(out) * max(int(x.shape[-1]), 1), "the work of numpy.inner()")
    return _host("inner", x, y)


def _host(name: str, *args: Any, **kwargs: Any) -> Any:
    from .hostnumpy import compute

    return _numpy(lambda: compute(name, *args, **kwargs))


def _broadcast_to(array: Any, shape: Any, subok: Any = False) -> Any:
    """`np.broadcast_to(a, shape)`: a read-only view of the array repeated to the shape."""
    x = _array(array, "broadcast_to")
    dims = _shape(shape, "shape", "broadcast_to")
    size_check(dims, "the result of numpy.broadcast_to()")
    return _numpy(lambda: np.broadcast_to(x, dims))


def _broadcast_arrays(*args: Any) -> Any:
    xs = [_array(a, "broadcast_arrays") for a in args]
    shape = _numpy(lambda: np.broadcast_shapes(*(x.shape for x in xs)))
    size_check((_count(shape) * max(len(xs), 1),), "the result of numpy.broadcast_arrays()")
    return _numpy(lambda: tuple(np.broadcast_arrays(*xs)))


def _broadcast_shapes(*shapes: Any) -> Any:
    dims = [_shape(s, "a shape", "broadcast_shapes") for s in shapes]
    return _numpy(lambda: np.broadcast_shapes(*dims))


def _unravel_index(indices: Any, shape: Any, order: Any = "C") -> Any:
    """`np.unravel_index(np.argmax(a), a.shape)`: the index of each flat index, one array (or
    NumPy integer) per axis."""
    idx = _array(indices, "unravel_index")
    dims = _shape(shape, "shape", "unravel_index")
    size_check((int(idx.size) * max(len(dims), 1),), "the result of numpy.unravel_index()")
    o = _plain_value(order, "order", "unravel_index")
    return _numpy(lambda: np.unravel_index(idx, dims, order=o))


def _ravel_multi_index(multi_index: Any, dims: Any, mode: Any = "raise", order: Any = "C") -> Any:
    parts = multi_index if isinstance(multi_index, (tuple, list)) else (multi_index,)
    if len(parts) > 64:
        raise GradcliError("too many index arrays").mirror("ValueError")
    xs = tuple(_array(p, "ravel_multi_index") for p in parts)
    d = _shape(dims, "dims", "ravel_multi_index")
    m = _plain_value(mode, "mode", "ravel_multi_index")
    o = _plain_value(order, "order", "ravel_multi_index")
    shape = _numpy(lambda: np.broadcast_shapes(*(x.shape for x in xs)))
    size_check(shape, "the result of numpy.ravel_multi_index()")
    return _numpy(lambda: np.ravel_multi_index(xs, d, mode=m, order=o))


def _empty_like(a: Any, dtype: Any = None) -> Any:
    """`np.empty_like(a)`: an array of a's shape whose values are unspecified (NumPy's are
    whatever the memory held): gradcli's are zeros."""
    from .numpy_extra import _like

    return _like("zeros_like")(a, dtype=dtype)


def _two_dims(n: Any, m: Any, fn: str) -> tuple[int, int]:
    rows = _int(n, "n")
    cols = rows if m is None else _int(m, "m")
    size_check((max(rows, 0), max(cols, 0)), f"the result of numpy.{fn}()")
    return rows, cols


def _tri_indices(name: str) -> Callable[..., Any]:
    """`np.triu_indices(n, k=1)`: the row and column indices of the triangle."""

    def call(n: Any, k: Any = 0, m: Any = None) -> Any:
        rows, cols = _two_dims(n, m, name)
        size_check((2, max(rows, 0), max(cols, 0)), f"the result of numpy.{name}()")
        off = _int(k, "k")
        return _numpy(lambda: getattr(np, name)(rows, off, cols))

    call.__name__ = name
    return call


def _tri_indices_from(name: str) -> Callable[..., Any]:
    def call(arr: Any, k: Any = 0) -> Any:
        x = _array(arr, name)
        size_check((2 * int(x.size),), f"the result of numpy.{name}()")
        off = _int(k, "k")
        return _numpy(lambda: getattr(np, name)(x, off))

    call.__name__ = name
    return call


def _tri(N: Any, M: Any = None, k: Any = 0, dtype: Any = None) -> Any:  # noqa: N803
    from .arrays import _dtype

    rows, cols = _two_dims(N, M, "tri")
    off = _int(k, "k")
    return _numpy(lambda: np.tri(rows, cols, off, dtype=_dtype(dtype, "tri") or np.float64))


def _diag_indices(n: Any, ndim: Any = 2) -> Any:
    size, dims = _int(n, "n"), _int(ndim, "ndim")
    size_check((max(size, 0), max(min(dims, 64), 0)), "the result of numpy.diag_indices()")
    if dims > 64:
        raise GradcliError("numpy.diag_indices(): ndim is over 64").mirror("ValueError")
    return _numpy(lambda: np.diag_indices(size, dims))


def _diag_indices_from(arr: Any) -> Any:
    x = _array(arr, "diag_indices_from")
    return _numpy(lambda: np.diag_indices_from(x))


def _indices(dimensions: Any, dtype: Any = None, sparse: Any = False) -> Any:
    from .arrays import _dtype

    dims = _shape(dimensions, "dimensions", "indices")
    total = sum(dims) if sparse else _count(dims) * len(dims)
    size_check((total,), "the result of numpy.indices()")
    dt = _dtype(dtype, "indices") or np.int64
    return _numpy(lambda: np.indices(dims, dtype=dt, sparse=bool(sparse)))


def _vander(x: Any, N: Any = None, increasing: Any = False) -> Any:  # noqa: N803
    v = _array(x, "vander")
    cols = int(v.size) if N is None else _int(N, "N")
    size_check((int(v.size), max(cols, 0)), "the result of numpy.vander()")
    return _numpy(lambda: np.vander(v, cols, increasing=bool(increasing)))


def _diagflat(v: Any, k: Any = 0) -> Any:
    x = _array(v, "diagflat")
    off = _int(k, "k")
    n = int(x.size) + abs(off)
    size_check((n, n), "the result of numpy.diagflat()")
    return _numpy(lambda: np.diagflat(x, off))


def _geomspace(start: Any, stop: Any, num: Any = 50, endpoint: Any = True) -> Any:
    count = _int(num, "num")
    size_check((max(count, 0),), "the result of numpy.geomspace()")
    a, b = _number(start, "geomspace"), _number(stop, "geomspace")
    return _numpy(lambda: np.geomspace(a, b, count, endpoint=bool(endpoint)))


def _resize(a: Any, new_shape: Any) -> Any:
    x = _array(a, "resize")
    dims = _shape(new_shape, "new_shape", "resize")
    size_check(dims, "the result of numpy.resize()")
    return _numpy(lambda: np.resize(x, dims))


def _split_along(name: str, axis: int) -> Callable[..., Any]:
    """`np.hsplit(a, 2)` / vsplit / dsplit: np.split along their axis (hsplit: the first of
    a 1-d array)."""

    def call(ary: Any, indices_or_sections: Any) -> Any:
        from .numpy_extra import _split

        x = _array(ary, name)
        need = {"vsplit": 2, "dsplit": 3}.get(name, 1)
        if x.ndim < need:
            return list(_numpy(lambda: getattr(np, name)(x, 1)))  # (NumPy's words)
        ax = 0 if name == "hsplit" and x.ndim == 1 else axis
        return _split(x, indices_or_sections, ax)

    call.__name__ = name
    return call


def _select(condlist: Any, choicelist: Any, default: Any = 0) -> Any:
    if not isinstance(condlist, (list, tuple)) or not isinstance(choicelist, (list, tuple)):
        raise GradcliError("select with an empty condition list is not possible").mirror(
            "ValueError"
        )
    conds = [_array(c, "select") for c in condlist]
    choices = [_array(c, "select") for c in choicelist]
    d = default if type(default) in (bool, int, float) else _array(default, "select")
    shapes = [c.shape for c in conds + choices] + [np.shape(d)]
    shape = _numpy(lambda: np.broadcast_shapes(*shapes))
    size_check((_count(shape) * max(len(conds), 1),), "the work of numpy.select()")
    return _numpy(lambda: np.select(conds, choices, d))


def _choose(a: Any, choices: Any, mode: Any = "raise") -> Any:
    x = _array(a, "choose")
    if not isinstance(choices, (list, tuple, np.ndarray)):
        raise GradcliError("numpy.choose(): choices must be a sequence of arrays").mirror(
            "TypeError"
        )
    cs = [_array(c, "choose") for c in choices]
    shape = _numpy(lambda: np.broadcast_shapes(x.shape, *(c.shape for c in cs)))
    size_check(shape, "the result of numpy.choose()")
    m = _plain_value(mode, "mode", "choose")
    return _numpy(lambda: np.choose(x, cs, mode=m))


def _in_place(v: Any, fn: str) -> np.ndarray:
    """The array a function changes in place (an array that shares a tensor's memory changes
    the tensor too); a tensor is refused: its own in-place method is PyTorch's."""
    if isinstance(v, Tensor):
        raise NotSupported(
            f"numpy.{fn}() of a tensor is not supported by gradcli",
            hint="use the tensor's own in-place method (scatter_, fill_diagonal_, copy_), "
            "or call it on t.numpy()",
        )
    if not isinstance(v, np.ndarray):
        raise GradcliError(f"argument 1 must be numpy.ndarray, not {typename(v)}").mirror(
            "TypeError"
        )
    if not v.flags.writeable:
        raise GradcliError("assignment destination is read-only").mirror("ValueError")
    return v


def _value_operand(v: Any, fn: str) -> Any:
    return v if type(v) in (bool, int, float, complex) else _array(v, fn)


def _put_along_axis(arr: Any, indices: Any, values: Any, axis: Any) -> None:
    a = _in_place(arr, "put_along_axis")
    idx = _array(indices, "put_along_axis")
    vals = _value_operand(values, "put_along_axis")
    ax = None if axis is None else _int(axis, "axis")
    _numpy(lambda: np.put_along_axis(a, idx, vals, ax))


def _fill_diagonal(a: Any, val: Any, wrap: Any = False) -> None:
    x = _in_place(a, "fill_diagonal")
    v = _value_operand(val, "fill_diagonal")
    _numpy(lambda: np.fill_diagonal(x, v, wrap=bool(wrap)))


def _copyto(dst: Any, src: Any, casting: Any = "same_kind", where: Any = True) -> None:
    d = _in_place(dst, "copyto")
    s = _value_operand(src, "copyto")
    w = where if type(where) is bool else _array(where, "copyto")
    c = _plain_value(casting, "casting", "copyto")
    _numpy(lambda: np.copyto(d, s, casting=c, where=w))


def _put(a: Any, ind: Any, v: Any, mode: Any = "raise") -> None:
    x = _in_place(a, "put")
    idx = _array(ind, "put")
    vals = _value_operand(v, "put")
    m = _plain_value(mode, "mode", "put")
    _numpy(lambda: np.put(x, idx, vals, mode=m))


def _putmask(a: Any, mask: Any, values: Any) -> None:
    x = _in_place(a, "putmask")
    m = _array(mask, "putmask")
    vals = _value_operand(values, "putmask")
    _numpy(lambda: np.putmask(x, m, vals))


def _place(arr: Any, mask: Any, vals: Any) -> None:
    x = _in_place(arr, "place")
    m = _array(mask, "place")
    v = _value_operand(vals, "place")
    _numpy(lambda: np.place(x, m, v))


def _block(arrays: Any) -> Any:
    """`np.block([[A, B], [C, D]])`: the arrays assembled by their nesting (sized first)."""
    total = 0
    todo = [(arrays, 0)]
    while todo:
        item, depth = todo.pop()
        limits.NESTING.check(depth, "the nesting of the lists given to numpy.block()")
        if isinstance(item, list):
            todo.extend((x, depth + 1) for x in item)
        else:
            total += int(_array(item, "block").size)
    size_check((total,), "the result of numpy.block()")

    def read(v: Any) -> Any:
        return [read(x) for x in v] if isinstance(v, list) else _array(v, "block")

    parts = read(arrays)
    return _numpy(lambda: np.block(parts))


def _ix(*args: Any) -> Any:
    xs = [_array(a, "ix_") for a in args]
    if len(xs) > 64:
        raise GradcliError("numpy.ix_(): over 64 sequences").mirror("ValueError")
    return _numpy(lambda: np.ix_(*xs))


def _iscomplexobj(x: Any) -> bool:
    if isinstance(x, Tensor):
        return x.dtype.kind == "c"  # (NumPy reads its dtype)
    if isinstance(x, (complex, np.complexfloating)):
        return True
    if isinstance(x, np.ndarray):
        return x.dtype.kind == "c"
    if isinstance(x, (bool, int, float, np.generic)):
        return False
    return _array(x, "iscomplexobj").dtype.kind == "c"


def _isrealobj(x: Any) -> bool:
    return not _iscomplexobj(x)


def _isscalar(element: Any) -> bool:
    """`np.isscalar(v)`: a number, a NumPy scalar or a string (not an array, list or tensor)."""
    return isinstance(element, (bool, int, float, complex, str, bytes, np.generic))


def _roots(p: Any) -> Any:
    x = _array(p, "roots")
    limits.LINALG_WORK.check(int(x.size) ** 3, "the work of numpy.roots()")
    return _host("roots", x)


def _poly1(name: str) -> Callable[..., Any]:
    """np.polyder / polyint (m times) of a polynomial's coefficients."""

    def call(p: Any, m: Any = 1) -> Any:
        x = _array(p, name)
        times = _int(m, "m")
        size_check((int(x.size) + max(times, 0),), f"the result of numpy.{name}()")
        return _numpy(lambda: getattr(np, name)(x, times))

    call.__name__ = name
    return call


def _poly2(name: str) -> Callable[..., Any]:
    """np.polyadd / polysub / polymul / polydiv of two polynomials' coefficients."""

    def call(a1: Any, a2: Any) -> Any:
        x, y = _array(a1, name), _array(a2, name)
        size_check((int(x.size) + int(y.size),), f"the result of numpy.{name}()")
        limits.LINALG_WORK.check(int(x.size) * int(y.size), f"the work of numpy.{name}()")
        return _numpy(lambda: getattr(np, name)(x, y))

    call.__name__ = name
    return call


def _unique_result(name: str, kind: str, fields: tuple[str, ...]) -> Callable[..., Any]:
    """`np.unique_counts(y)`: NumPy's named tuple of the unique values and their counts (or
    indices, inverse)."""

    def call(x: Any) -> Any:
        from .numpy_extra import _result_type

        a = _array(x, name)
        out = _numpy(lambda: tuple(getattr(np, name)(a)))
        return _result_type(kind, fields).make(list(out), {})

    call.__name__ = name
    return call


def _sliding_window_view(x: Any, window_shape: Any, axis: Any = None) -> Any:
    """`sliding_window_view(x, 3)`: a read-only view of every window (no copy), sized as the
    array it stands for."""
    a = _array(x, "sliding_window_view")
    w = _shape(window_shape, "window_shape", "sliding_window_view")
    ax = None if axis is None else _shape(axis, "axis", "sliding_window_view")
    view = _numpy(lambda: np.lib.stride_tricks.sliding_window_view(a, w, axis=ax))
    size_check(view.shape, "the result of sliding_window_view()")
    return view


def _printed(kind: str) -> Callable[..., Any]:
    """`np.array2string(a, precision=3, separator=', ')`, `np.array_repr`, `np.array_str`:
    NumPy's text of the array under the options given (checked as `np.set_printoptions`
    checks them, for this call only), its least length checked against the string limit
    before NumPy makes it."""
    from . import numpy_printing as P

    def call(
        a: Any,
        max_line_width: Any = None,
        precision: Any = None,
        suppress_small: Any = None,
        separator: Any = " ",
        prefix: Any = "",
        *,
        threshold: Any = None,
        edgeitems: Any = None,
        sign: Any = None,
        floatmode: Any = None,
        suffix: Any = "",
    ) -> str:
        x = _array(a, kind)
        words = {"separator": separator, "prefix": prefix, "suffix": suffix}
        texts = {k: P._text(v, k) for k, v in words.items()}
        if kind != "array2string" and (
            separator != " " or prefix or suffix or threshold is not None or edgeitems
        ):
            raise GradcliError(f"{kind}() got an unexpected keyword argument").mirror("TypeError")
        options = P.PrintOptions(
            precision=precision,
            threshold=threshold,
            edgeitems=edgeitems,
            linewidth=max_line_width,
            suppress=suppress_small,
            sign=sign,
            floatmode=floatmode,
        )
        options.enter()
        try:
            floor = P.text_floor(x)
            if floor:
                floor += int(x.size) * len(texts["separator"])
                limits.STRING_CHARS.check(floor, "the length of the string (at least)")
            if kind == "array2string":
                return _numpy(lambda: np.array2string(x, **texts))
            return _numpy(lambda: getattr(np, kind)(x))
        finally:
            options.exit()

    call.__name__ = kind
    return call


def _make_dtype(obj: Any, align: Any = False, copy: Any = False) -> np.dtype:
    """`np.dtype('float32')`, `np.dtype(np.int64)`, `np.dtype(float)`: NumPy's dtype object
    (of the dtypes gradcli's arrays have)."""
    from .arrays import _dtype
    from .values import DType

    if isinstance(obj, np.dtype):
        return obj
    if isinstance(obj, DType) and not getattr(type(obj), "NUMPY_SCALAR", False):
        raise GradcliError(f"Cannot interpret '{obj!r}' as a data type").mirror("TypeError")
    if isinstance(obj, str) and len(obj) > 32:
        raise NotSupported(
            "numpy.dtype() of a string of over 32 characters is not supported by gradcli",
            hint="np.dtype('float32'), np.dtype(np.int64)",
        )
    if obj is None:
        return np.dtype(np.float64)
    from .values import PyType

    if not isinstance(obj, (str, DType, PyType)):
        raise GradcliError(
            f"Cannot interpret '{typename(obj)}' object as a data type",
            hint="np.dtype('float32'), np.dtype(np.int64), np.dtype(float)",
        ).mirror("TypeError")
    found = _dtype(getattr(obj, "np", obj), "dtype")
    if found is None:
        raise GradcliError(f"Cannot interpret '{obj!r}' as a data type").mirror("TypeError")
    return np.dtype(found)


# NumPy's floating-point error handling (np.seterr / np.errstate): the settings a program reads
# back. gradcli's NumPy computations never raise on them ('raise' and 'call' are refused).
ERR_DEFAULTS = {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
_ERR: dict[str, str] = dict(ERR_DEFAULTS)
_ERR_MODES = ("ignore", "warn", "raise", "call", "print", "log")


def reset_errors() -> None:
    _ERR.clear()
    _ERR.update(ERR_DEFAULTS)


def _err_settings(all: Any = None, **kinds: Any) -> dict[str, str]:  # noqa: A002
    new = dict(_ERR)
    given = {k: all for k in ERR_DEFAULTS} if all is not None else {}
    for k, v in kinds.items():
        if k not in ERR_DEFAULTS:
            raise GradcliError(f"seterr() got an unexpected keyword argument '{k}'").mirror(
                "TypeError"
            )
        if v is not None:
            given[k] = v
    for k, v in given.items():
        if v not in _ERR_MODES:
            raise (
                GradcliError(
                    f"Invalid value {v!r} for {k}; must be one of ignore, warn, raise, call, "
                    "print, log"
                ).mirror("ValueError")
                if isinstance(v, str)
                else GradcliError(f"invalid error handling mode {v!r}").mirror("ValueError")
            )
        if v in ("raise", "call"):
            raise NotSupported(
                f"numpy floating-point error mode {v!r} is not supported by gradcli",
                hint="check the result instead: np.isfinite(x).all()",
            )
        new[k] = v
    return new


def _seterr(
    all: Any = None,  # noqa: A002
    divide: Any = None,
    over: Any = None,
    under: Any = None,
    invalid: Any = None,
) -> dict[str, str]:
    old = dict(_ERR)
    new = _err_settings(all, divide=divide, over=over, under=under, invalid=invalid)
    _ERR.update(new)
    return old


def _geterr() -> dict[str, str]:
    return dict(_ERR)


class ErrState:
    """`with np.errstate(divide='ignore'):`: the settings for the block, the ones before
    restored when it ends."""

    program_context = True

    def __init__(self, **kwargs: Any) -> None:
        self.new = _err_settings(**kwargs)  # (checked when made, as NumPy's)
        self.saved: dict[str, str] | None = None
        self.as_value: Any = None

    def program_typename(self) -> str:
        return "errstate"

    def __repr__(self) -> str:
        return f"<numpy.errstate object at {id(self):#x}>"

    def enter(self) -> None:
        self.saved = dict(_ERR)
        _ERR.update(self.new)

    def exit(self) -> None:
        if self.saved is not None:
            _ERR.update(self.saved)
            self.saved = None


def _errstate(
    *,
    all: Any = None,  # noqa: A002
    divide: Any = None,
    over: Any = None,
    under: Any = None,
    invalid: Any = None,
    call: Any = None,
) -> ErrState:
    if call is not None:
        raise NotSupported(
            "numpy.errstate(call=...) is not supported by gradcli",
            hint="check the result instead: np.isfinite(x).all()",
        )
    return ErrState(all=all, divide=divide, over=over, under=under, invalid=invalid)


class Vectorized:
    """`np.vectorize(f)` (and `@np.vectorize`): the program's function called on each element
    of the broadcast operands (each element as the Python number NumPy passes; without
    `otypes` first once on the first elements as NumPy's scalars, whose results fix the
    dtypes, as NumPy does), each call a loop iteration, the results NumPy's arrays."""

    def __init__(
        self,
        pyfunc: Any,
        otypes: Any = None,
        doc: Any = None,
        excluded: Any = None,
        cache: Any = False,
        signature: Any = None,
    ) -> None:
        if not callable(pyfunc) and not hasattr(pyfunc, "__gradcli_call__"):
            raise GradcliError(f"'{typename(pyfunc)}' object is not callable").mirror("TypeError")
        if excluded is not None or signature is not None or cache:
            raise NotSupported(
                "numpy.vectorize(excluded=..., signature=..., cache=...) is not supported by "
                "gradcli",
                hint="call np.vectorize(f) (or with otypes=[...]) on numbers' arrays",
            )
        self.fn = pyfunc
        self.otypes = None if otypes is None else _otypes(otypes)

    def __repr__(self) -> str:
        return f"<numpy.vectorize object at {id(self):#x}>"

    def program_typename(self) -> str:
        return "vectorize"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from .values import current

        return self.__gradcli_call__(current(), list(args), kwargs)

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        if rt is None:
            from .values import current

            rt = current()
        if kwargs:
            raise NotSupported(
                "keyword arguments to a numpy.vectorize function are not supported by gradcli",
                hint="give the arguments by position",
            )
        xs = [_array(a, "vectorize") for a in args]
        shape = _numpy(lambda: np.broadcast_shapes(*(x.shape for x in xs)))
        size_check(shape, "the result of a numpy.vectorize function")
        n = _count(shape)
        otypes = self.otypes
        if otypes is None:
            if n == 0:
                raise GradcliError(
                    "cannot call `vectorize` on size 0 inputs unless `otypes` is set"
                ).mirror("ValueError")
            first = self._one(rt, [x.flat[0] for x in xs])
            otypes = [
                np.asarray(v).dtype for v in (first if isinstance(first, tuple) else (first,))
            ]
        parts = [np.broadcast_to(x, shape) for x in xs]
        outs = [np.empty(shape, dtype=object) for _ in otypes]
        for at in np.ndindex(*shape):
            got = self._one(rt, [p[at].item() for p in parts])
            values = got if isinstance(got, tuple) else (got,)
            if len(values) != len(outs):
                raise GradcliError(
                    f"the function of numpy.vectorize returned {len(values)} values, "
                    f"{len(outs)} before"
                ).mirror("ValueError")
            for o, v in zip(outs, values):
                o[at] = v
        try:
            made = tuple(np.asarray(o, dtype=t) for o, t in zip(outs, otypes))
        except (TypeError, ValueError, OverflowError) as e:
            raise GradcliError(str(e)).mirror(type(e).__name__) from None
        return made if len(made) > 1 else made[0]

    def _one(self, rt: Any, values: list) -> Any:
        rt.iterations += 1
        limits.LOOP_ITERATIONS.check(rt.iterations, "the number of loop iterations")
        out = rt.call(self.fn, values, {}, None)
        items = out if isinstance(out, tuple) and 0 < len(out) <= 32 else (out,)
        for v in items:
            if not isinstance(v, (bool, int, float, complex, np.generic)) or (
                isinstance(v, np.generic) and v.dtype.kind not in "biufc"
            ):
                raise NotSupported(
                    f"a numpy.vectorize function that returns {typename(v)} is not supported "
                    "by gradcli",
                    hint="return a number (or a tuple of numbers) for each element",
                )
        return out


def _vectorize(pyfunc: Any, *args: Any, **kwargs: Any) -> Vectorized:
    return Vectorized(pyfunc, *args, **kwargs)


def _otypes(v: Any) -> list[np.dtype]:
    from .arrays import _dtype

    items = list(v) if isinstance(v, (list, tuple)) else [v]
    if isinstance(v, str):
        items = list(v)  # (NumPy's type characters: 'd', 'f', 'l'...)
    if not items or len(items) > 32:
        raise GradcliError("numpy.vectorize(): otypes must name 1 to 32 dtypes").mirror(
            "ValueError"
        )
    return [np.dtype(_dtype(getattr(t, "np", t), "vectorize")) for t in items]


# NumPy's abstract scalar types (`isinstance(v, np.floating)`, `np.issubdtype(dt, np.integer)`)
ABSTRACT = {
    "generic": np.generic,
    "number": np.number,
    "integer": np.integer,
    "signedinteger": np.signedinteger,
    "unsignedinteger": np.unsignedinteger,
    "inexact": np.inexact,
    "floating": np.floating,
    "complexfloating": np.complexfloating,
}


def abstract_types() -> dict[str, Any]:
    from .values import PyType

    return {n: PyType(n, (t,), None, shown=f"numpy.{n}") for n, t in ABSTRACT.items()}


def _dtype_or_abstract(v: Any, fn: str) -> Any:
    from .values import PyType

    if isinstance(v, PyType) and len(v.types) == 1 and v.types[0] in ABSTRACT.values():
        return v.types[0]
    if isinstance(v, np.ndarray):
        return v.dtype
    return _make_dtype(v)


def _issubdtype(arg1: Any, arg2: Any) -> bool:
    """`np.issubdtype(a.dtype, np.floating)`: NumPy's answer for dtypes and scalar types."""
    a, b = _dtype_or_abstract(arg1, "issubdtype"), _dtype_or_abstract(arg2, "issubdtype")
    return bool(np.issubdtype(a, b))


def _type_operand(v: Any, fn: str) -> Any:
    """An argument of result_type / can_cast: an array, a Python or NumPy number (its value
    matters to NumPy), or a dtype."""
    if isinstance(v, np.ndarray) or (isinstance(v, np.generic) and v.dtype.kind in "biufc"):
        return v
    if type(v) in (bool, int, float, complex):
        return v
    return _make_dtype(v)


def _result_type(*arrays_and_dtypes: Any) -> np.dtype:
    if len(arrays_and_dtypes) > 64:
        raise GradcliError("at most 64 arrays or dtypes").mirror("ValueError")
    ops = [_type_operand(v, "result_type") for v in arrays_and_dtypes]
    return _numpy(lambda: np.result_type(*ops))


def _promote_types(type1: Any, type2: Any) -> np.dtype:
    a, b = _make_dtype(type1), _make_dtype(type2)
    return _numpy(lambda: np.promote_types(a, b))


def _can_cast(from_: Any, to: Any, casting: Any = "safe") -> bool:
    a = _type_operand(from_, "can_cast")
    b = _make_dtype(to)
    c = _plain_value(casting, "casting", "can_cast")
    return bool(_numpy(lambda: np.can_cast(a, b, casting=c)))


def _ndindex(*shape: Any) -> list:
    """`for i, j in np.ndindex(3, 2)`: every index of the shape, in C order (a list here)."""
    dims = _shape(
        shape[0] if len(shape) == 1 and isinstance(shape[0], tuple) else shape, "shape", "ndindex"
    )
    limits.LIST_ITEMS.check(_count(dims), "the indices numpy.ndindex() makes")
    return list(np.ndindex(*dims))


def _ndenumerate(arr: Any) -> list:
    """`for idx, v in np.ndenumerate(a)`: each index with its value (a NumPy scalar)."""
    x = _array(arr, "ndenumerate")
    limits.LIST_ITEMS.check(int(x.size), "the items numpy.ndenumerate() makes")
    return list(np.ndenumerate(x))


def _bins(bins: Any, fn: str, dims: int) -> Any:
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
        size_check((int(bins) + 1,) * dims, f"the bins of numpy.{fn}()")
        return int(bins)
    if isinstance(bins, (list, tuple)) and len(bins) == dims and dims > 1:
        parts = [_bins(b, fn, 1) for b in bins]
        counts = [p if isinstance(p, int) else int(p.size) for p in parts]
        size_check(tuple(c + 1 for c in counts), f"the bins of numpy.{fn}()")
        return parts
    edges = _array(bins, fn)
    size_check((int(edges.size),) * dims, f"the bins of numpy.{fn}()")
    return edges


def _histogram2d(
    x: Any,
    y: Any,
    bins: Any = 10,
    range: Any = None,  # noqa: A002
    density: Any = None,
    weights: Any = None,
) -> Any:
    a, b = _array(x, "histogram2d"), _array(y, "histogram2d")
    edges = _bins(bins, "histogram2d", 2)
    span = None if range is None else [[_number(v, "histogram2d") for v in r] for r in range]
    w = None if weights is None else _array(weights, "histogram2d")
    dens = None if density is None else bool(density)
    return _numpy(lambda: np.histogram2d(a, b, bins=edges, range=span, density=dens, weights=w))


def _histogram_bin_edges(
    a: Any,
    bins: Any = 10,
    range: Any = None,  # noqa: A002
    weights: Any = None,
) -> Any:
    x = _array(a, "histogram_bin_edges")
    if isinstance(bins, str):
        raise NotSupported(
            "numpy.histogram_bin_edges() with a rule's name is not supported by gradcli",
            hint="give the number of bins (bins=10) or their edges",
        )
    edges = _bins(bins, "histogram_bin_edges", 1)
    span = None if range is None else tuple(_number(v, "histogram_bin_edges") for v in range)
    w = None if weights is None else _array(weights, "histogram_bin_edges")
    return _numpy(lambda: np.histogram_bin_edges(x, bins=edges, range=span, weights=w))


def _fromfunction(function: Any, shape: Any, *, dtype: Any = None, **kwargs: Any) -> Any:
    """`np.fromfunction(lambda i, j: i + j, (3, 3))`: the program's function called once with
    the index arrays (float64 unless dtype says), its result what it returns."""
    from .arrays import _dtype
    from .values import current

    if not callable(function) and not hasattr(function, "__gradcli_call__"):
        raise GradcliError(f"'{typename(function)}' object is not callable").mirror("TypeError")
    dims = _shape(shape, "shape", "fromfunction")
    size_check((_count(dims) * max(len(dims), 1),), "the index arrays of numpy.fromfunction()")
    dt = _dtype(dtype, "fromfunction") or np.float64
    grids = list(np.indices(dims, dtype=dt))
    return current().call(function, grids, dict(kwargs), None)


def _iterable(y: Any) -> bool:
    if isinstance(y, np.ndarray) or isinstance(y, Tensor):
        return y.ndim > 0
    return isinstance(y, (list, tuple, str, bytes, dict, set, frozenset, range))


class Poly1d:
    """`p = np.poly1d(np.polyfit(x, y, 2))`: NumPy's polynomial of those coefficients (or of
    those roots, `r=True`), printed as NumPy prints it, called on numbers and arrays (NumPy's
    polyval), with its coefficients, order, roots, deriv() and integ()."""

    PROGRAM_ATTRIBUTES = (
        "c", "coef", "coefficients", "coeffs", "order", "o", "roots", "r", "variable",
        "deriv", "integ",
    )  # fmt: skip

    def __init__(self, p: np.poly1d) -> None:
        self.np = p

    @property
    def c(self) -> np.ndarray:
        return self.np.c

    coef = coefficients = coeffs = c

    @property
    def order(self) -> int:
        return self.np.order

    o = order

    @property
    def roots(self) -> Any:
        x = self.np.c
        limits.LINALG_WORK.check(int(x.size) ** 3, "the work of poly1d.roots")
        return _host("roots", x)

    r = roots

    @property
    def variable(self) -> str:
        return self.np.variable

    def deriv(self, m: Any = 1) -> Poly1d:
        times = _int(m, "m")
        return Poly1d(_numpy(lambda: self.np.deriv(times)))

    def integ(self, m: Any = 1, k: Any = 0) -> Poly1d:
        times = _int(m, "m")
        size_check((int(self.np.c.size) + max(times, 0),), "the result of poly1d.integ()")
        const = _value_operand(k, "poly1d.integ")
        return Poly1d(_numpy(lambda: self.np.integ(times, const)))

    def __call__(self, val: Any) -> Any:
        if isinstance(val, Poly1d):
            size_check((int(self.np.c.size) * int(val.np.c.size),), "the composition of two poly1d")
            return Poly1d(_numpy(lambda: self.np(val.np)))
        x = _array(val, "poly1d")
        return _numpy(lambda: self.np(x))

    def program_len(self) -> int:
        return len(self.np)

    def program_typename(self) -> str:
        return "poly1d"

    def program_str(self) -> str:
        limits.STRING_CHARS.check(int(self.np.c.size) * 8, "the length of the string (at least)")
        return str(self.np)

    def __repr__(self) -> str:
        return repr(self.np)


def _poly1d(c_or_r: Any, r: Any = False, variable: Any = None) -> Poly1d:
    if isinstance(c_or_r, Poly1d):
        return Poly1d(np.poly1d(c_or_r.np))
    x = _array(c_or_r, "poly1d")
    if x.ndim > 1:
        raise GradcliError("Polynomial must be 1d only.").mirror("ValueError")
    limits.LINALG_WORK.check(int(x.size) ** 2, "the work of numpy.poly1d()")
    var = None if variable is None else _plain_value(variable, "variable", "poly1d")
    if var is not None and (not isinstance(var, str) or len(var) > 10):
        raise GradcliError("numpy.poly1d(): variable must be a short name").mirror("TypeError")
    return Poly1d(_numpy(lambda: np.poly1d(x, r=bool(r), variable=var)))


def _poly(seq_of_zeros: Any) -> Any:
    x = _array(seq_of_zeros, "poly")
    limits.LINALG_WORK.check(int(x.size) ** 3 if x.ndim == 2 else int(x.size) ** 2, "numpy.poly()")
    if x.ndim == 2:
        return _host("poly", x)  # (the characteristic polynomial: eigenvalues)
    return _numpy(lambda: np.poly(x))


class IndexExpression:
    """`np.s_[1:5, ::2]` / `np.index_exp[...]`: the index written, as a value (index_exp: a
    tuple always)."""

    NUMBER_SLICES = True

    def __init__(self, tuple_always: bool) -> None:
        self.tuple_always = tuple_always

    def program_getitem(self, key: Any) -> Any:
        if self.tuple_always and not isinstance(key, tuple):
            return (key,)
        return key

    def __repr__(self) -> str:
        return f"<numpy.lib._index_tricks_impl.IndexExpression object at {id(self):#x}>"


def _astype(x: Any, dtype: Any, /, *, copy: Any = True, device: Any = None) -> Any:
    """`np.astype(a, np.float32)` (NumPy 2's function form of `a.astype`)."""
    from .pyobjects import _array_astype

    if not isinstance(x, np.ndarray):
        raise GradcliError(f"Input should be a NumPy array. It is a {typename(x)} instead.").mirror(
            "TypeError"
        )
    return _array_astype(x, dtype)


def _format_float(kind: str) -> Callable[..., str]:
    """`np.format_float_positional(x, precision=3)` / `format_float_scientific`: NumPy's
    text of one float (its pads bounded)."""
    np_fn = getattr(np, kind)

    def call(x: Any, precision: Any = None, unique: Any = True, *args: Any, **kwargs: Any) -> str:
        if not isinstance(x, (float, int, np.floating, np.integer)) or isinstance(x, bool):
            raise GradcliError("float expected").mirror("TypeError")
        value = x if isinstance(x, np.floating) else np.float64(x)
        rest = [_plain_value(v, "argument", kind) for v in args]
        kw = {k: _plain_value(v, k, kind) for k, v in kwargs.items()}
        for v in [precision, *rest, *kw.values()]:
            if isinstance(v, int) and not isinstance(v, bool) and v > 1000:
                raise GradcliError(f"numpy.{kind}(): a width or precision over 1000").mirror(
                    "ValueError"
                )
        p = None if precision is None else _int(precision, "precision")
        return _numpy(lambda: np_fn(value, p, bool(unique), *rest, **kw))

    call.__name__ = kind
    return call


def _fromiter(iterable: Any, dtype: Any, count: Any = -1) -> Any:
    """`np.fromiter((x * x for x in range(5)), dtype=float)`: an array of the numbers the
    iterable gives (at most `count`), counted as NumPy reads them."""
    from .arrays import _dtype
    from .values import iterate

    dt = _dtype(dtype, "fromiter")
    if dt is None:
        raise GradcliError("Cannot interpret 'None' as a data type").mirror("TypeError")
    n = _int(count, "count")
    items: list = []
    for v in iterate(iterable, "numpy.fromiter()"):
        if n >= 0 and len(items) >= n:
            break
        if not isinstance(v, (bool, int, float, complex, np.generic)):
            raise GradcliError(
                f"numpy.fromiter(): the iterable gave {typename(v)}, not a number"
            ).mirror("TypeError")
        items.append(v)
        limits.LIST_ITEMS.check(len(items), "the items numpy.fromiter() reads")
    if n >= 0 and len(items) < n:
        raise GradcliError(
            f"iterator too short: Expected {n} but iterator had only {len(items)} items."
        ).mirror("ValueError")
    return _numpy(lambda: np.array(items, dtype=dt))


def _repr_int(kind: str) -> Callable[..., str]:
    """`np.binary_repr(5, width=8)` / `np.base_repr(255, 16)`: NumPy's text of an integer."""
    np_fn = getattr(np, kind)

    def call(num: Any, *args: Any, **kwargs: Any) -> str:
        value = _int(num, "num")
        limits.INT_BITS.check(value.bit_length(), "the size of an integer in bits")
        rest = [_int(v, "argument") if v is not None else None for v in args]
        kw = {k: _int(v, k) if v is not None else None for k, v in kwargs.items()}
        if any(isinstance(v, int) and v > 10_000 for v in [*rest, *kw.values()]):
            raise GradcliError(f"numpy.{kind}(): a width over 10000").mirror("ValueError")
        return _numpy(lambda: np_fn(value, *rest, **kw))

    call.__name__ = kind
    return call


def _piecewise(x: Any, condlist: Any, funclist: Any, *args: Any, **kw: Any) -> Any:
    """`np.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v])`: each function (or
    number) on the elements its condition picks (the program's functions called by NumPy on
    those arrays, once each)."""
    from .values import current

    a = _array(x, "piecewise")
    conds = condlist if isinstance(condlist, list) else [condlist]
    cs = [c if type(c) is bool else _array(c, "piecewise") for c in conds]
    if not isinstance(funclist, (list, tuple)) or len(funclist) > 1000:
        raise GradcliError("numpy.piecewise(): funclist must be a list").mirror("TypeError")
    rt = current()

    def wrap(f: Any) -> Any:
        if isinstance(f, (bool, int, float, complex, np.generic)):
            return f
        if not callable(f) and not hasattr(f, "__gradcli_call__"):
            raise GradcliError(f"'{typename(f)}' object is not callable").mirror("TypeError")

        def run(part: np.ndarray, *more: Any, **named: Any) -> Any:
            out = rt.call(f, [part.copy(), *more], dict(named), None)
            if isinstance(out, Tensor) or not isinstance(
                out, (np.ndarray, np.generic, bool, int, float, complex)
            ):
                raise NotSupported(
                    f"a numpy.piecewise function that returns {typename(out)} is not "
                    "supported by gradcli",
                    hint="return a NumPy array or a number",
                )
            return out

        return run

    fns = [wrap(f) for f in funclist]
    return _numpy(lambda: np.piecewise(a, cs, fns, *args, **kw))


def _emath(name: str) -> Callable[..., Any]:
    """`np.emath.sqrt(-1)`: NumPy's functions that give complex results for the inputs whose
    real results do not exist."""
    np_fn = getattr(np.emath, name)
    arity = 2 if name in ("power", "logn") else 1

    def call(*args: Any) -> Any:
        if len(args) != arity:
            raise GradcliError(f"{name}() takes {arity} arguments").mirror("TypeError")
        ops = [_array(a, f"emath.{name}") for a in args]
        shape = _numpy(lambda: np.broadcast_shapes(*(o.shape for o in ops)))
        size_check(shape, f"the result of numpy.emath.{name}()")
        return _numpy(lambda: np_fn(*ops))

    call.__name__ = name
    return call


def emath_functions() -> dict[str, Any]:
    return {
        n: _emath(n)
        for n in ("sqrt", "log", "log2", "log10", "logn", "power", "arccos", "arcsin", "arctanh")
    }


# NumPy's functions of one array (or two) whose results are no larger than the operands:
# added to `numpy_extra._PLAIN` (name -> arrays, keywords, sizing).
PLAIN: dict[str, tuple[int, tuple[str, ...], str]] = {
    "array_equiv": (2, (), "none"),
    "ediff1d": (1, (), "none"),
    "copy": (1, ("order",), "none"),
    "compress": (2, ("axis",), "none"),
    "nancumprod": (1, ("axis",), "none"),
    "cumulative_sum": (1, ("axis", "include_initial"), "rows"),
    "cumulative_prod": (1, ("axis", "include_initial"), "rows"),
    "unique_values": (1, (), "none"),
    "unstack": (1, ("axis",), "none"),
    "matrix_transpose": (1, (), "none"),
    "permute_dims": (1, ("axes",), "none"),
    "sort_complex": (1, (), "none"),
    "unwrap": (1, ("discont", "axis", "period"), "none"),
    "real_if_close": (1, ("tol",), "none"),
    "iscomplex": (1, (), "none"),
    "isreal": (1, (), "none"),
    "asarray_chkfinite": (1, (), "none"),
    "asanyarray": (1, (), "none"),
    "packbits": (1, ("axis", "bitorder"), "none"),
    "unpackbits": (1, ("axis", "count", "bitorder"), "rows"),
    "bitwise_count": (1, (), "none"),
    "row_stack": (1, (), "none"),
    "matvec": (2, (), "none"),
    "vecmat": (2, (), "none"),
    **{
        name: (1, (), "none")
        for name in (
            "isneginf isposinf signbit spacing positive invert bitwise_not bitwise_invert i0 "
            "modf frexp tan arcsinh arccosh arctanh"
        ).split()
    },
    **{
        name: (2, (), "broadcast")
        for name in (
            "ldexp left_shift right_shift bitwise_left_shift bitwise_right_shift divmod vecdot"
        ).split()
    },
}


def functions() -> dict[str, Any]:
    from .numpy_extra import _plain

    out: dict[str, Any] = {
        name: _plain(name, arrays, keywords, sized)
        for name, (arrays, keywords, sized) in PLAIN.items()
    }
    out.update(
        {
            "tensordot": _tensordot,
            "inner": _inner,
            "broadcast_to": _broadcast_to,
            "broadcast_arrays": _broadcast_arrays,
            "broadcast_shapes": _broadcast_shapes,
            "unravel_index": _unravel_index,
            "ravel_multi_index": _ravel_multi_index,
            "empty_like": _empty_like,
            "tril_indices": _tri_indices("tril_indices"),
            "triu_indices": _tri_indices("triu_indices"),
            "tril_indices_from": _tri_indices_from("tril_indices_from"),
            "triu_indices_from": _tri_indices_from("triu_indices_from"),
            "tri": _tri,
            "diag_indices": _diag_indices,
            "diag_indices_from": _diag_indices_from,
            "indices": _indices,
            "vander": _vander,
            "diagflat": _diagflat,
            "geomspace": _geomspace,
            "resize": _resize,
            "hsplit": _split_along("hsplit", 1),
            "vsplit": _split_along("vsplit", 0),
            "dsplit": _split_along("dsplit", 2),
            "select": _select,
            "choose": _choose,
            "put_along_axis": _put_along_axis,
            "fill_diagonal": _fill_diagonal,
            "copyto": _copyto,
            "put": _put,
            "putmask": _putmask,
            "place": _place,
            "block": _block,
            "ix_": _ix,
            "iscomplexobj": _iscomplexobj,
            "isrealobj": _isrealobj,
            "isscalar": _isscalar,
            "roots": _roots,
            "array2string": _printed("array2string"),
            "array_repr": _printed("array_repr"),
            "array_str": _printed("array_str"),
            "seterr": _seterr,
            "geterr": _geterr,
            "errstate": _errstate,
            "vectorize": _vectorize,
            "issubdtype": _issubdtype,
            "result_type": _result_type,
            "promote_types": _promote_types,
            "can_cast": _can_cast,
            "ndindex": _ndindex,
            "ndenumerate": _ndenumerate,
            "histogram2d": _histogram2d,
            "histogram_bin_edges": _histogram_bin_edges,
            "fromfunction": _fromfunction,
            "iterable": _iterable,
            "poly1d": _poly1d,
            "s_": IndexExpression(False),
            "index_exp": IndexExpression(True),
            "True_": np.True_,
            "False_": np.False_,
            "astype": _astype,
            "format_float_positional": _format_float("format_float_positional"),
            "format_float_scientific": _format_float("format_float_scientific"),
            "fromiter": _fromiter,
            "binary_repr": _repr_int("binary_repr"),
            "base_repr": _repr_int("base_repr"),
            "piecewise": _piecewise,
            "poly": _poly,
            "unique_counts": _unique_result(
                "unique_counts", "UniqueCountsResult", ("values", "counts")
            ),
            "unique_inverse": _unique_result(
                "unique_inverse", "UniqueInverseResult", ("values", "inverse_indices")
            ),
            "unique_all": _unique_result(
                "unique_all",
                "UniqueAllResult",
                ("values", "indices", "inverse_indices", "counts"),
            ),
            **{name: _poly1(name) for name in ("polyder", "polyint")},
            **{name: _poly2(name) for name in ("polyadd", "polysub", "polymul", "polydiv")},
        }
    )
    return out


def _matrix_power(a: Any, n: Any) -> Any:
    """`np.linalg.matrix_power(A, n)`: A multiplied by itself (by squaring: about 2 log2 |n|
    products), its inverse's powers for a negative n."""
    x = _array(a, "linalg.matrix_power")
    k = _int(n, "n")
    m = int(x.shape[-1]) if x.ndim else 0
    batch = _count(x.shape[:-2]) if x.ndim > 2 else 1
    steps = 2 * max(abs(k), 1).bit_length() + 1
    limits.LINALG_WORK.check(m**3 * batch * steps, "the work of numpy.linalg.matrix_power()")
    return _linalg_host("matrix_power", x, k)


def _multi_dot(arrays: Any, *, out: Any = None) -> Any:
    """`np.linalg.multi_dot([A, B, C])`: the product of the chain (NumPy picks the order)."""
    if out is not None:
        raise NotSupported(
            "numpy.linalg.multi_dot(out=...) is not supported by gradcli",
            hint="name the result: r = np.linalg.multi_dot([...])",
        )
    if not isinstance(arrays, (list, tuple)) or len(arrays) > 1000:
        raise GradcliError("multi_dot() takes a list of at most 1000 arrays").mirror("TypeError")
    xs = [_array(a, "linalg.multi_dot") for a in arrays]
    if len(xs) < 2:
        return _numpy(lambda: np.linalg.multi_dot(xs))  # (NumPy's words)
    dims = [int(x.shape[0]) if x.ndim else 1 for x in xs] + [
        int(xs[-1].shape[-1]) if xs[-1].ndim else 1
    ]
    # the work of the chain left to right bounds the one NumPy's order does
    work = sum(dims[0] * dims[i] * dims[i + 1] for i in range(1, len(xs)))
    limits.LINALG_WORK.check(work, "the work of numpy.linalg.multi_dot()")
    size_check((dims[0], dims[-1]), "the result of numpy.linalg.multi_dot()")
    return _linalg_host("multi_dot", xs)


def _linalg_host(name: str, *args: Any) -> Any:
    from .hostnumpy import compute

    def run() -> Any:
        try:
            return compute(f"linalg.{name}", *args)
        except np.linalg.LinAlgError as e:
            raise GradcliError(str(e)).mirror("LinAlgError").pytorch() from None

    return _numpy(run)


def _linalg_outer(x1: Any, x2: Any) -> Any:
    a, b = _array(x1, "linalg.outer"), _array(x2, "linalg.outer")
    size_check((int(a.size), int(b.size)), "the result of numpy.linalg.outer()")
    return _numpy(lambda: np.linalg.outer(a, b))


def _linalg_cross(x1: Any, x2: Any, axis: Any = -1) -> Any:
    a, b = _array(x1, "linalg.cross"), _array(x2, "linalg.cross")
    shape = _numpy(lambda: np.broadcast_shapes(a.shape, b.shape))
    size_check(shape, "the result of numpy.linalg.cross()")
    ax = _int(axis, "axis")
    return _numpy(lambda: np.linalg.cross(a, b, axis=ax))


def _linalg_matmul(x1: Any, x2: Any) -> Any:
    from .npmatmul import numpy_matmul

    return numpy_matmul(_array(x1, "linalg.matmul"), _array(x2, "linalg.matmul"), "matmul")


def _linalg_vecdot(x1: Any, x2: Any, axis: Any = -1) -> Any:
    a, b = _array(x1, "linalg.vecdot"), _array(x2, "linalg.vecdot")
    shape = _numpy(lambda: np.broadcast_shapes(a.shape, b.shape))
    size_check(shape, "the work of numpy.linalg.vecdot()")
    ax = _int(axis, "axis")
    return _numpy(lambda: np.linalg.vecdot(a, b, axis=ax))


def linalg_functions() -> dict[str, Any]:
    """The members these add to `numpy.linalg`."""
    return {
        "matrix_power": _matrix_power,
        "multi_dot": _multi_dot,
        "outer": _linalg_outer,
        "cross": _linalg_cross,
        "matmul": _linalg_matmul,
        "vecdot": _linalg_vecdot,
        "tensordot": _linalg_tensordot,
    }


def _linalg_tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
    return _tensordot(x1, x2, axes)


def stride_tricks() -> dict[str, Any]:
    return {"sliding_window_view": _sliding_window_view}
