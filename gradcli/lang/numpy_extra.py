"""More of `numpy` as notebooks use it beside torch: the everyday array functions
(`np.zeros_like`, `np.unique(y, return_counts=True)`, `np.flip`, `np.median`, `np.outer`,
`np.tile`...) and elementwise functions (`np.log1p`, `np.floor`, `np.sign`...), computed by
NumPy itself on arrays, numbers and lists, so the values, dtypes and printing are NumPy's.

Every argument is checked to be a number, an array, a list of numbers or one of a few words
before NumPy sees it (nothing of the program's own objects reaches NumPy), and every result
that can be larger than its input is sized first (the tensor element limit). A tensor is
refused with the tensor's own method as the hint, as `arrays._on_arrays` does.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..core.tensor import Tensor, typename
from ..ops.arithmetic import size_check
from . import numpy_printing


def _array(v: Any, fn: str) -> np.ndarray:
    from .arrays import _operand

    if isinstance(v, Tensor):
        raise GradcliError(
            f"numpy.{fn}() of a tensor is not supported by gradcli",
            hint="use the tensor's own method or torch's function, or x.numpy() first",
        )
    return _operand(v, fn)


def _int(v: Any, what: str) -> int:
    from .values import as_index

    v = as_index(v)  # (its __index__, as NumPy takes it)
    if isinstance(v, bool) or not isinstance(v, int):
        raise GradcliError(f"'{typename(v)}' object cannot be interpreted as an integer").mirror(
            "TypeError"
        )
    return v


def _axis(v: Any) -> Any:
    if v is None:
        return None
    if isinstance(v, (tuple, list)):
        return tuple(_int(a, "axis") for a in v)
    return _int(v, "axis")


def _number(v: Any, fn: str) -> Any:
    if isinstance(v, np.generic) and v.dtype.kind in "biuf":
        return v.item()
    if not isinstance(v, (bool, int, float)):
        raise GradcliError(f"numpy.{fn}: expected a number, not {typename(v)}").mirror("TypeError")
    return v


def _numpy(fn: Callable[[], Any]) -> Any:
    from .values import numpy_call

    return numpy_call(fn)


def _host(name: str, np_fn: Any) -> Any:
    from .arrays import host_function

    return host_function(name, np_fn)


def _elementwise(name: str) -> Callable[..., Any]:
    np_fn = _host(name, getattr(np, name))

    def call(a: Any) -> Any:
        if isinstance(a, Tensor):
            # a ufunc on a tensor's values (`t.numpy()`), its result a tensor again
            from .ndinterop import tensor_array, wrapped

            arr = tensor_array(a)
            with np.errstate(all="ignore"):
                return wrapped(np_fn(arr))
        x = _array(a, name)
        return _numpy(lambda: np_fn(x))

    call.__name__ = name
    return call


def _like(name: str) -> Callable[..., Any]:
    def call(a: Any, *fill: Any, dtype: Any = None) -> Any:
        from .arrays import _dtype

        x = _array(a, name)
        dt = _dtype(dtype, name)
        if name == "full_like":
            if len(fill) != 1:
                raise GradcliError(
                    "full_like() missing required argument 'fill_value' (pos 2)"
                ).mirror("TypeError")
            value = _number(fill[0], name)
            return _numpy(lambda: np.full_like(x, value, dtype=dt))
        if len(fill) > 1 or (fill and dtype is not None):
            raise GradcliError(f"{name}() takes at most 2 positional arguments").mirror("TypeError")
        if fill:  # np.zeros_like(a, np.int64): the dtype, given by position
            dt = _dtype(fill[0], name)
        return _numpy(lambda: getattr(np, name)(x, dtype=dt))

    call.__name__ = name
    return call


def _unique(
    a: Any,
    return_index: Any = False,
    return_inverse: Any = False,
    return_counts: Any = False,
    axis: Any = None,
) -> Any:
    x = _array(a, "unique")
    flags = [bool(v) for v in (return_index, return_inverse, return_counts)]
    return _numpy(
        lambda: np.unique(
            x,
            return_index=flags[0],
            return_inverse=flags[1],
            return_counts=flags[2],
            axis=_axis(axis),
        )
    )


def _flip(a: Any, axis: Any = None) -> Any:
    x = _array(a, "flip")
    return _numpy(lambda: np.flip(x, axis=_axis(axis)))


def _expand_dims(a: Any, axis: Any) -> Any:
    x = _array(a, "expand_dims")
    return _numpy(lambda: np.expand_dims(x, _axis(axis)))


def _reshape(a: Any, shape: Any) -> Any:
    from .pyobjects import ARRAY_METHODS

    x = _array(a, "reshape")
    return ARRAY_METHODS["reshape"](x, *(shape if isinstance(shape, (tuple, list)) else (shape,)))


def _reduce(name: str) -> Callable[..., Any]:
    """np.any / np.all / np.median / np.cumprod / np.count_nonzero (axis, keepdims)."""

    def call(a: Any, axis: Any = None, keepdims: Any = False) -> Any:
        x = _array(a, name)
        ax = _axis(axis)
        if name == "cumprod":
            if keepdims is not False or isinstance(ax, tuple):
                raise GradcliError("cumprod() takes one integer axis").mirror("TypeError")
            return _numpy(lambda: np.cumprod(x, axis=ax))
        kwargs = {"axis": ax, "keepdims": bool(keepdims)}
        return _numpy(lambda: getattr(np, name)(x, **kwargs))

    call.__name__ = name
    return call


def _quantiles(name: str) -> Callable[..., Any]:
    """np.percentile / quantile and their NaN-skipping forms: NumPy's, sized first (one result
    of the reduced operand per q)."""

    def call(
        a: Any,
        q: Any,
        axis: Any = None,
        out: Any = None,
        overwrite_input: Any = False,
        method: Any = "linear",
        keepdims: Any = False,
        *,
        weights: Any = None,
    ) -> Any:
        x = _array(a, name)
        qs = _array(q, name)
        if out is not None:
            raise NotSupported(
                f"numpy.{name}(out=...) is not supported by gradcli",
                hint=f"name the result: r = np.{name}(...)",
            )
        if not isinstance(method, str) or len(method) > 40:
            raise GradcliError(f"numpy.{name}(): method must be a string").mirror("TypeError")
        w = None if weights is None else _array(weights, name)
        size_check((max(int(x.size), 1) * max(int(qs.size), 1),), f"the result of numpy.{name}()")
        fn = getattr(np, name)
        extra = {} if w is None else {"weights": w}
        return _numpy(
            lambda: fn(x, qs, axis=_axis(axis), method=method, keepdims=bool(keepdims), **extra)
        )

    call.__name__ = name
    return call


_percentile = _quantiles("percentile")


def _isclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: Any = False) -> Any:
    x, y = _array(a, "isclose"), _array(b, "isclose")
    size_check(np.broadcast_shapes(x.shape, y.shape), "the result of numpy.isclose()")
    r, t = _number(rtol, "isclose"), _number(atol, "isclose")
    return _numpy(lambda: np.isclose(x, y, rtol=r, atol=t, equal_nan=bool(equal_nan)))


def _array_equal(a: Any, b: Any) -> bool:
    x, y = _array(a, "array_equal"), _array(b, "array_equal")
    return bool(np.array_equal(x, y))


def _nonzero(a: Any) -> Any:
    return _numpy(lambda: np.nonzero(_array(a, "nonzero")))


def _outer(a: Any, b: Any) -> Any:
    x, y = _array(a, "outer"), _array(b, "outer")
    size_check((int(x.size), int(y.size)), "the result of numpy.outer()")
    return _numpy(lambda: np.outer(x, y))


def _sliding(name: str) -> Callable[..., Any]:
    """`np.convolve(losses, [0.05] * 20)` (a moving average of a training curve) and
    `np.correlate`: NumPy's own, the result's size and the multiply-adds bounded first."""

    def call(a: Any, v: Any, mode: Any = "full" if name == "convolve" else "valid") -> Any:
        from ..base import limits

        x, y = _array(a, name), _array(v, name)
        if isinstance(mode, str) and mode in ("full", "same", "valid") and x.size and y.size:
            size_check((x.size + y.size - 1,), f"the result of numpy.{name}()")
            limits.MULTIPLY_ADDS.check(
                int(x.size) * int(y.size), f"the multiply-adds of numpy.{name}()"
            )
        return _numpy(lambda: _host(name, getattr(np, name))(x, y, mode))

    call.__name__ = name
    return call


def _pad(array: Any, pad_width: Any, mode: Any = "constant", **kwargs: Any) -> Any:
    """`np.pad(x, 1)`, `np.pad(img, ((1, 1), (2, 2)), mode="edge")`: NumPy's own, the padded
    shape checked first (a function as the mode is not given: it would run per row)."""
    x = _array(array, "pad")
    widths = _plain_value(pad_width, "pad_width", "pad")
    if not isinstance(mode, str):
        raise GradcliError(
            f"numpy.pad with a mode of {typename(mode)} is not supported by gradcli",
            hint="give one of NumPy's mode names ('constant', 'edge', 'reflect', ...)",
        )
    options = {}
    for key, v in kwargs.items():
        if key not in ("constant_values", "end_values", "reflect_type", "stat_length"):
            raise GradcliError(f"pad() got an unexpected keyword argument '{key}'").mirror(
                "TypeError"
            )
        options[key] = _plain_value(v, key, "pad")
    try:
        pairs = np.broadcast_to(np.asarray(widths, dtype=np.int64), (x.ndim, 2))
    except (ValueError, TypeError, OverflowError):
        return _numpy(lambda: np.pad(x, widths, mode, **options))  # NumPy's words
    if (pairs < 0).any():
        raise GradcliError("index can't contain negative values").mirror("ValueError")
    size_check(
        tuple(int(n) + int(lo) + int(hi) for n, (lo, hi) in zip(x.shape, pairs, strict=True)),
        "the result of numpy.pad()",
    )
    return _numpy(lambda: np.pad(x, widths, mode, **options))


def _insert(arr: Any, obj: Any, values: Any, axis: Any = None) -> Any:
    """`np.insert(X, 0, 1, axis=1)` (a bias column): NumPy's own, the result sized first."""
    x, vals = _array(arr, "insert"), _array(values, "insert")
    if isinstance(obj, slice):
        where: Any = slice(
            *(_plain_value(v, "obj", "insert") for v in (obj.start, obj.stop, obj.step))
        )
        count = len(range(*where.indices(x.size if axis is None else max(x.shape, default=0))))
    elif isinstance(obj, (list, tuple, np.ndarray)):
        where = _array(obj, "insert")
        count = int(where.size)
    else:
        where = _plain_value(obj, "obj", "insert")
        count = 1
    along = None if axis is None else _int(axis, "axis")
    rows = 1 if along is None or x.ndim == 0 else int(x.size) // max(x.shape[along % x.ndim], 1)
    size_check(
        (int(x.size) + max(count, int(vals.size), 1) * max(rows, 1),),
        "the result of numpy.insert()",
    )
    return _numpy(lambda: np.insert(x, where, vals, axis=along))


def _apply_along_axis(func1d: Any, axis: Any, arr: Any, *args: Any, **kwargs: Any) -> Any:
    """`np.apply_along_axis(f, 1, data)`: the program's function on each 1-d slice (each call
    counted as a loop iteration, its result checked to be numbers), NumPy assembling them; the
    result's size is checked after the first call, before NumPy allocates it."""
    from .values import current

    x = _array(arr, "apply_along_axis")
    along = _int(axis, "axis")
    if not callable(func1d) and not hasattr(func1d, "__gradcli_call__"):
        raise GradcliError(f"'{typename(func1d)}' object is not callable").mirror("TypeError")
    if x.ndim == 0 or not -x.ndim <= along < x.ndim:
        raise GradcliError(f"axis {along} is out of bounds for array of dimension {x.ndim}").mirror(
            "AxisError"
        )
    rt = current()
    calls = int(x.size) // max(x.shape[along], 1)
    state = {"checked": False}

    def one(row: np.ndarray) -> Any:
        rt.iterations += 1
        limits.LOOP_ITERATIONS.check(rt.iterations, "the number of loop iterations")
        out = rt.call(func1d, [row.copy(), *args], dict(kwargs), None)
        if isinstance(out, Tensor) or not (
            isinstance(out, (np.ndarray, np.generic, int, float, bool, complex))
            or (isinstance(out, (list, tuple)) and len(out) <= limits.LIST_ITEMS.value)
        ):
            raise GradcliError(
                f"numpy.apply_along_axis: the function returned {typename(out)}",
                hint="return a NumPy array or a number from each slice",
            )
        value = np.asarray(out)
        if not state["checked"]:
            size_check((calls * max(int(value.size), 1),), "the result of apply_along_axis()")
            state["checked"] = True
        return value

    return _numpy(lambda: np.apply_along_axis(one, along, x))


def _slice_count(item: slice, name: str) -> int:
    """How many numbers a slice of numbers makes in `np.r_[...]`, `np.mgrid[...]` (an
    imaginary step is a count of points: `-1:1:5j`), its parts checked to be numbers."""
    bounds = (item.start, item.stop, item.step)
    for v in bounds:
        if v is not None and (
            isinstance(v, bool) or not isinstance(v, (int, float, complex, np.integer, np.floating))
        ):
            raise GradcliError(
                f"numpy.{name}[...] with a slice of {typename(v)} is not supported by gradcli",
                hint="give slices of real numbers (start:stop:step)",
            )
    start, stop, step = bounds
    if stop is None:
        raise GradcliError(f"numpy.{name}[...]: a slice needs a stop")
    if isinstance(step, complex):
        return int(abs(step))
    return max(math.ceil((float(stop) - float(start or 0)) / float(step or 1)), 0)


class _GridTrick:
    """`np.mgrid[0:3, 0:2]` / `np.ogrid[...]` / `np.mgrid[-1:1:5j]`: NumPy's own grids of
    slices of numbers (an imaginary step is a count of points), sized first."""

    NUMBER_SLICES = True

    def __init__(self, name: str) -> None:
        self.name = name

    def program_getitem(self, key: Any) -> Any:
        items = key if isinstance(key, tuple) else (key,)
        counts = []
        for item in items:
            if not isinstance(item, slice):
                raise GradcliError(
                    f"numpy.{self.name}[...] takes slices (start:stop:step), not {typename(item)}",
                    hint=f"write np.{self.name}[0:3, 0:2]",
                ).mirror("TypeError")
            counts.append(_slice_count(item, self.name))
        total = 1
        for c in counts:
            total *= max(c, 1)
        size_check(
            (total * len(counts) if self.name == "mgrid" else sum(counts),),
            f"the result of numpy.{self.name}[...]",
        )
        trick = np.mgrid if self.name == "mgrid" else np.ogrid
        return _numpy(lambda: trick[key])

    def __repr__(self) -> str:
        kind = "MGridClass" if self.name == "mgrid" else "OGridClass"
        return f"<numpy.lib._index_tricks_impl.{kind} object at {id(self):#x}>"


def _tile(a: Any, reps: Any) -> Any:
    x = _array(a, "tile")
    r = tuple(_int(v, "reps") for v in (reps if isinstance(reps, (tuple, list)) else (reps,)))
    if any(v < 0 for v in r):
        raise GradcliError("negative dimensions are not allowed").mirror("ValueError")
    n = len(r) - x.ndim
    shape = (1,) * max(n, 0) + x.shape
    reps_full = (1,) * max(-n, 0) + r
    size_check(tuple(s * k for s, k in zip(shape, reps_full, strict=True)), "numpy.tile()")
    return _numpy(lambda: np.tile(x, r))


def _repeat(a: Any, repeats: Any, axis: Any = None) -> Any:
    from .pyobjects import ARRAY_METHODS

    x = _array(a, "repeat")
    if isinstance(repeats, Tensor):
        raise GradcliError("numpy.repeat() of tensor repeats is not supported by gradcli")
    return _numpy(lambda: ARRAY_METHODS["repeat"](x, repeats, axis))


def _diag(v: Any, k: Any = 0) -> Any:
    x = _array(v, "diag")
    kk = _int(k, "k")
    if x.ndim == 1:
        n = int(x.size) + abs(kk)
        size_check((n, n), "the result of numpy.diag()")
    return _numpy(lambda: np.diag(x, kk))


def _trace(a: Any, offset: Any = 0) -> Any:
    x = _array(a, "trace")
    off = _int(offset, "offset")
    return _numpy(lambda: np.trace(x, off))


_MAX_PIECES = 100_000
_SPLIT_HINT = "split into fewer pieces, or take the ones you need by slicing: a[i:j]"


def _split(a: Any, indices_or_sections: Any, axis: Any = 0) -> Any:
    """`np.split(data, n / 8)`: NumPy's own pieces (views of the array), a list of them; the
    number of sections (an int, or a float NumPy takes as one) or the split points (a list of
    integers) bounded before NumPy makes the pieces."""
    x = _array(a, "split")
    ax = _int(axis, "axis")
    if isinstance(indices_or_sections, (list, tuple)):
        if len(indices_or_sections) > _MAX_PIECES:
            raise NotSupported(
                f"numpy.split() into over {_MAX_PIECES:,} pieces is not supported by gradcli",
                hint=_SPLIT_HINT,
            )
        points: Any = [_int(v, "indices") for v in indices_or_sections]
    elif isinstance(indices_or_sections, np.ndarray) and indices_or_sections.dtype.kind in "iu":
        if indices_or_sections.size > _MAX_PIECES:
            raise NotSupported(
                f"numpy.split() into over {_MAX_PIECES:,} pieces is not supported by gradcli",
                hint=_SPLIT_HINT,
            )
        points = [int(v) for v in indices_or_sections.ravel()]
    else:
        n = indices_or_sections
        if isinstance(n, (float, np.floating)) and math.isfinite(n) and n >= 1:
            # NumPy divides by the float, then takes its integer part as the sections
            if ax < -x.ndim or ax >= x.ndim or x.shape[ax] % n:
                return list(_numpy(lambda: tuple(np.split(x, float(n), axis=ax))))
            n = int(n)
        elif isinstance(n, str):
            raise GradcliError(
                "slice indices must be integers or None or have an __index__ method"
            ).mirror("TypeError")
        n = _int(n, "indices_or_sections")
        if n > _MAX_PIECES:
            raise NotSupported(
                f"numpy.split() into over {_MAX_PIECES:,} sections is not supported by gradcli",
                hint=_SPLIT_HINT,
            )
        points = n
    return list(_numpy(lambda: tuple(np.split(x, points, axis=ax))))


def _meshgrid(*xi: Any, indexing: Any = "xy", sparse: Any = False, copy: Any = True) -> Any:
    """`X, Y = np.meshgrid(x, y)`: NumPy's own grids (a tuple of arrays, as NumPy 2), their
    size (the product of the inputs' sizes, times their number) bounded before NumPy makes
    them."""
    arrays = [_array(v, "meshgrid") for v in xi]
    if indexing not in ("xy", "ij"):
        raise GradcliError("Valid values for `indexing` are 'xy' and 'ij'.").mirror("ValueError")
    total = 1
    for v in arrays:
        total *= int(v.size)
    if not sparse:
        size_check((total, max(len(arrays), 1)), "the result of numpy.meshgrid()")
    return _numpy(
        lambda: tuple(np.meshgrid(*arrays, indexing=indexing, sparse=bool(sparse), copy=bool(copy)))
    )


def _norm(x: Any, ord: Any = None, axis: Any = None, keepdims: Any = False) -> Any:  # noqa: A002
    """`np.linalg.norm`: NumPy's own vector and matrix norms (a reduction: never larger), of
    a tensor's values too (as NumPy reads it: `t.numpy()`)."""
    if isinstance(x, Tensor):
        from .ndinterop import tensor_array

        a = tensor_array(x)
    else:
        a = _array(x, "linalg.norm")
    if isinstance(ord, str):  # 'fro', 'nuc'; NumPy words the refusal of any other string
        order: Any = str(ord)
    else:
        order = None if ord is None else _number(ord, "linalg.norm")
    norm = _host("linalg.norm", np.linalg.norm)
    return _numpy(lambda: norm(a, ord=order, axis=_axis(axis), keepdims=bool(keepdims)))


_EINSUM_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def _einsum(subscripts: Any, *operands: Any) -> Any:
    """`np.einsum('na,nb->nab', x, u)`: NumPy's own, on arrays, numbers and lists, with the
    subscripts checked (letters, commas, one `->`, `...`) and the result's size and the work
    (the product of every label's size) bounded before NumPy runs."""
    if not isinstance(subscripts, str):
        raise GradcliError(
            "numpy.einsum() takes its subscripts as a string in gradcli programs",
            hint="write np.einsum('ij,jk->ik', a, b)",
        )
    if not operands:
        raise GradcliError("No input operands").mirror("ValueError")
    arrays = [_array(v, "einsum") for v in operands]
    eq = subscripts.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    bad = set(lhs + rhs) - _EINSUM_LETTERS - {",", "."}
    if bad or (arrow and "->" in rhs):
        # NumPy's own words for a malformed equation
        return _numpy(lambda: np.einsum(subscripts, *arrays))
    terms = lhs.split(",")
    if len(terms) != len(arrays):
        return _numpy(lambda: np.einsum(subscripts, *arrays))
    sizes: dict[str, int] = {}
    ellipses: list[tuple[int, ...]] = []
    for term, a in zip(terms, arrays, strict=True):
        letters = term.replace("...", "")
        if len(letters) > a.ndim or ("..." not in term and len(letters) != a.ndim):
            return _numpy(lambda: np.einsum(subscripts, *arrays))
        named = a.shape
        if "..." in term:  # the dims the ellipsis stands for
            i = term.index("...")
            j = a.ndim - (len(letters) - i)
            ellipses.append(a.shape[i:j])
            named = a.shape[:i] + a.shape[j:]
        for c, n in zip(letters, named, strict=True):
            sizes[c] = max(sizes.get(c, 1), int(n))
    try:
        dots = tuple(int(n) for n in np.broadcast_shapes(*ellipses)) if ellipses else ()
    except ValueError:
        return _numpy(lambda: np.einsum(subscripts, *arrays))
    if arrow:
        out_letters = rhs.replace("...", "")
    else:  # NumPy's implicit output: the letters that appear once
        out_letters = "".join(sorted(c for c in sizes if lhs.count(c) == 1))
    size_check(dots + tuple(sizes.get(c, 1) for c in out_letters), "the result of numpy.einsum()")
    work = 1
    for n in dots + tuple(sizes.values()):
        work *= n
    limits.LINALG_WORK.check(work * len(arrays), "the work of numpy.einsum()")
    return _numpy(lambda: _host("einsum", np.einsum)(subscripts, *arrays))


# numpy.linalg's decompositions and solvers: NumPy's own (LAPACK), on arrays, numbers and
# lists; their work (m * n * min(m, n) a matrix, times the batch) checked against the limit
# before LAPACK runs. name -> how many array operands.
_LINALG = {
    "inv": 1,
    "pinv": 1,
    "det": 1,
    "slogdet": 1,
    "matrix_rank": 1,
    "eig": 1,
    "eigh": 1,
    "eigvals": 1,
    "eigvalsh": 1,
    "svd": 1,
    "qr": 1,
    "cholesky": 1,
    "solve": 2,
    "lstsq": 2,
    # (fixnumpy41) NumPy 2's array-API functions and the condition number
    "cond": 1,
    "svdvals": 1,
    "matrix_norm": 1,
    "vector_norm": 1,
    "trace": 1,
    "diagonal": 1,
    "matrix_transpose": 1,
}


def _linalg(name: str, arrays: int) -> Callable[..., Any]:
    np_fn = _host(f"linalg.{name}", getattr(np.linalg, name))

    def call(*args: Any, **kwargs: Any) -> Any:
        if len(args) < arrays:
            raise GradcliError(f"{name}() missing required argument").mirror("TypeError")
        ops = [_array(a, f"linalg.{name}") for a in args[:arrays]]
        rest = [_plain_value(v, "argument", f"linalg.{name}") for v in args[arrays:]]
        kw = {k: _plain_value(v, k, f"linalg.{name}") for k, v in kwargs.items()}
        work = 0
        for a in ops:
            if a.ndim >= 2:
                m, n = int(a.shape[-2]), int(a.shape[-1])
                batch = int(np.prod(a.shape[:-2])) if a.ndim > 2 else 1
                work += m * n * max(1, min(m, n)) * batch
            else:
                work += int(a.size)
        limits.LINALG_WORK.check(work, f"the work of numpy.linalg.{name}()")

        kind: list = []

        def run() -> Any:
            try:
                out = np_fn(*ops, *rest, **kw)
            except np.linalg.LinAlgError as e:
                raise GradcliError(str(e)).mirror("LinAlgError").pytorch() from None
            if getattr(out, "_fields", None):
                kind.append((type(out).__name__, tuple(out._fields)))
            return out

        out = _numpy(run)
        if kind:  # EighResult, SVDResult...: the program's named tuple of the same name
            return _result_type(*kind[0]).make(list(out), {})
        return out

    call.__name__ = name
    return call


_RESULT_TYPES: dict[str, Any] = {}


def _result_type(name: str, fields: tuple[str, ...]) -> Any:
    from .pycollections import NamedTupleClass

    made = _RESULT_TYPES.get(name)
    if made is None:
        made = _RESULT_TYPES[name] = NamedTupleClass(name, fields, {})
    return made


def linalg_functions() -> dict[str, Any]:
    """The members of the `numpy.linalg` namespace (the rest are refused by name)."""
    from .exceptions import CLASSES

    out: dict[str, Any] = {"norm": _norm, "LinAlgError": CLASSES["LinAlgError"]}
    for name, arrays in _LINALG.items():
        out[name] = _linalg(name, arrays)
    return out


ELEMENTWISE = (
    "log1p",
    "log2",
    "log10",
    "expm1",
    "exp2",
    "floor",
    "ceil",
    "trunc",
    "sign",
    "sinh",
    "cosh",
    "arcsin",
    "arccos",
    "arctan",
    "negative",
    "reciprocal",
    "isnan",
    "isinf",
    "isfinite",
    "logical_not",
)


def _logical(name: str) -> Callable[..., Any]:
    """np.logical_and / logical_or / logical_xor of two arrays, numbers or lists (broadcast,
    the result sized first)."""
    np_fn = getattr(np, name)

    def call(a: Any, b: Any) -> Any:
        # (a truth value is an operand here: np.logical_or(mask, False))
        x, y = (np.asarray(v) if type(v) is bool else _array(v, name) for v in (a, b))
        try:
            shape = np.broadcast_shapes(x.shape, y.shape)
        except ValueError:
            return _numpy(lambda: np_fn(x, y))  # NumPy's own words for the shapes
        size_check(shape, f"the result of numpy.{name}()")
        return _numpy(lambda: np_fn(x, y))

    call.__name__ = name
    return call


def _atleast(name: str) -> Callable[..., Any]:
    """`np.atleast_1d(x)` (and 2d, 3d): the array with at least so many axes (a number becomes
    a one-element array); of several, NumPy 2's tuple of them."""
    np_fn = getattr(np, name)

    def call(*arys: Any) -> Any:
        xs = [_array(a, name) for a in arys]
        return _numpy(lambda: np_fn(*xs))

    call.__name__ = name
    return call


class FInfo:
    """`np.finfo(np.float32)`: NumPy's machine limits of a floating dtype, computed by NumPy; its
    values are NumPy's scalars of that dtype (`np.finfo(np.float32).eps` prints 1.1920929e-07,
    `float(...)` of it is the Python float), and it prints as NumPy prints it."""

    PROGRAM_ATTRIBUTES = (
        "bits",
        "dtype",
        "eps",
        "epsneg",
        "max",
        "min",
        "precision",
        "resolution",
        "smallest_normal",
        "smallest_subnormal",
        "tiny",
    )

    def __init__(self, info: np.finfo) -> None:
        self._info = info
        for name in self.PROGRAM_ATTRIBUTES:
            setattr(self, name, getattr(info, name))

    def __repr__(self) -> str:
        return repr(self._info)

    def program_typename(self) -> str:
        return "finfo"

    def program_str(self) -> str:
        return str(self._info)


def _dtype_like(v: Any) -> Any:
    """What of a program's value NumPy's finfo may see: a dtype, a scalar type, a Python number
    type, a short dtype string or a number; anything else stands for an object (whose dtype
    NumPy reports as `numpy.object_`, not inexact, as it does for a torch dtype)."""
    from .values import DType, PyType

    if isinstance(v, DType) and type(v) is not DType:  # np.float32 (torch's dtypes: DType)
        return v.np
    if isinstance(v, PyType):
        for t in (bool, int, float):
            if t in v.types:
                return t
    if isinstance(v, (np.dtype, bool, int, float, np.generic)):
        return v
    if isinstance(v, str):
        if len(v) > 32:  # NumPy would parse it as a structured dtype: not worth the work
            raise NotSupported(
                "numpy.finfo() of a string of over 32 characters is not supported by gradcli",
                hint="np.finfo(np.float32), np.finfo('float64')",
            )
        return v
    return object


def _finfo(dtype: Any) -> FInfo:
    host = _dtype_like(dtype)
    if host is object:
        raise GradcliError("data type <class 'numpy.object_'> not inexact").mirror("ValueError")
    try:
        return FInfo(np.finfo(host))
    except (TypeError, ValueError) as e:
        raise GradcliError(str(e)).mirror(type(e).__name__) from None


class IInfo(FInfo):
    """`np.iinfo(np.int8)`: NumPy's limits of an integer dtype (its max and min Python ints)."""

    PROGRAM_ATTRIBUTES = ("bits", "dtype", "kind", "max", "min")

    def program_typename(self) -> str:
        return "iinfo"


def _iinfo(dtype: Any) -> IInfo:
    host = _dtype_like(dtype)
    if host is object or host is float or isinstance(host, float):
        raise GradcliError(f"Invalid integer data type {np.dtype(host).kind!r}.").mirror(
            "ValueError"
        )
    try:
        return IInfo(np.iinfo(host))
    except (TypeError, ValueError) as e:
        raise GradcliError(str(e)).mirror(type(e).__name__) from None


def _identity(n: Any, dtype: Any = None) -> Any:
    size = _int(n, "n")
    size_check((size, size), "the result of numpy.identity()")
    from .arrays import _dtype

    return _numpy(lambda: np.identity(size, dtype=_dtype(dtype, "identity") or np.float64))


def _empty(shape: Any, dtype: Any = None) -> Any:
    """`np.empty(shape)`: an array whose values are unspecified (NumPy's are whatever the memory
    held): gradcli's are zeros."""
    from .arrays import _filled

    return _filled(0, "empty")(shape, dtype)


def _logspace(start: Any, stop: Any, num: Any = 50, endpoint: Any = True, base: Any = 10.0) -> Any:
    count = _int(num, "num")
    size_check((max(count, 0),), "the result of numpy.logspace()")
    a, b, e = _number(start, "logspace"), _number(stop, "logspace"), _number(base, "logspace")
    return _numpy(lambda: np.logspace(a, b, count, endpoint=bool(endpoint), base=e))


def _kron(a: Any, b: Any) -> Any:
    x, y = _array(a, "kron"), _array(b, "kron")
    size_check((int(x.size) * int(y.size),), "the result of numpy.kron()")
    return _numpy(lambda: np.kron(x, y))


def _histogram(a: Any, bins: Any = 10, range: Any = None, density: Any = None) -> Any:  # noqa: A002
    x = _array(a, "histogram")
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
        size_check((int(bins) + 1,), "the bins of numpy.histogram()")
        edges: Any = int(bins)
    else:
        edges = _array(bins, "histogram")
    span = None if range is None else tuple(_number(v, "histogram") for v in range)
    dens = None if density is None else bool(density)
    return _numpy(lambda: np.histogram(x, bins=edges, range=span, density=dens))


def _bincount(x: Any, weights: Any = None, minlength: Any = 0) -> Any:
    a = _array(x, "bincount")
    w = None if weights is None else _array(weights, "bincount")
    top = int(a.max()) + 1 if a.size and a.dtype.kind in "iu" else 0
    size_check((max(top, _int(minlength, "minlength"), 0),), "the result of numpy.bincount()")
    return _numpy(lambda: np.bincount(a, weights=w, minlength=_int(minlength, "minlength")))


def _polyfit(x: Any, y: Any, deg: Any, rcond: Any = None, full: Any = False) -> Any:
    xs, ys = _array(x, "polyfit"), _array(y, "polyfit")
    order = _int(deg, "deg")
    if not 0 <= order <= 100:
        raise GradcliError(
            f"numpy.polyfit: a degree of {order} is not supported by gradcli",
            hint="fit a polynomial of degree 0 to 100",
        )
    limits.LINALG_WORK.check(int(xs.size) * (order + 1) ** 2, "the work of numpy.polyfit()")
    fit = _host("polyfit", np.polyfit)
    return _numpy(lambda: fit(xs, ys, order, rcond=rcond, full=bool(full)))


def _cov(m: Any, y: Any = None, rowvar: Any = True, bias: Any = False, ddof: Any = None) -> Any:
    a = _array(m, "cov")
    b = None if y is None else _array(y, "cov")
    rows = 0
    for part in (a, b):
        if part is not None:
            rows += (part.shape[0] if bool(rowvar) else part.shape[-1]) if part.ndim == 2 else 1
    size_check((rows, rows), "the result of numpy.cov()")
    obs = int(a.size) // max(rows, 1) + 1
    limits.LINALG_WORK.check(rows * rows * obs, "the work of numpy.cov()")
    return _numpy(
        lambda: _host("cov", np.cov)(
            a,
            b,
            rowvar=bool(rowvar),
            bias=bool(bias),
            ddof=None if ddof is None else _int(ddof, "ddof"),
        )
    )


class _IndexTrick:
    """`np.c_[ones, X]` / `np.r_[a, b]`: NumPy's own, of arrays, numbers, lists and slices of
    numbers (`np.r_[0:5]`), sized first; the string directives are not given."""

    NUMBER_SLICES = True  # `np.r_[0:1:0.25]`, `np.r_[-1:1:5j]`

    def __init__(self, name: str) -> None:
        self.name = name

    def program_getitem(self, key: Any) -> Any:
        items = key if isinstance(key, tuple) else (key,)
        parts: list = []
        total = 0
        for item in items:
            if isinstance(item, slice):
                count = _slice_count(item, self.name)
                size_check((count,), f"the result of numpy.{self.name}[...]")
                total += count
                parts.append(item)
            elif isinstance(item, str):
                raise GradcliError(
                    f"numpy.{self.name}[...] with a string directive is not supported by gradcli",
                    hint="join the arrays with np.concatenate / np.column_stack",
                )
            else:
                a = _array(item, self.name)
                total += int(a.size)
                parts.append(a)
        size_check((total,), f"the result of numpy.{self.name}[...]")
        trick = np.c_ if self.name == "c_" else np.r_
        return _numpy(lambda: trick[tuple(parts)])

    def __repr__(self) -> str:
        kind = "CClass" if self.name == "c_" else "RClass"
        return f"<numpy.lib._index_tricks_impl.{kind} object at {id(self):#x}>"


# NumPy's own functions of arrays whose results are no larger than their (broadcast) operands,
# or sized from their arguments and checked first: name -> (how many leading arguments are
# arrays, the keywords taken (an array keyword named with a leading "@"), what sizes the
# result: "broadcast" the operands' broadcast shape, "sum" their sizes together, "rows" one
# array of the operand's size per axis, "none" nothing beyond the operands). Tutorials reach
# for these while making data; a tensor operand is refused (the tensor's own method is
# PyTorch's computation).
_PLAIN: dict[str, tuple[int, tuple[str, ...], str]] = {
    **{
        name: (2, (), "broadcast")
        for name in (
            "copysign logaddexp logaddexp2 heaviside fmax fmin greater less equal not_equal "
            "greater_equal less_equal nextafter float_power true_divide gcd lcm "
            "bitwise_and bitwise_or bitwise_xor"
        ).split()
    },
    "arctan2": (2, (), "broadcast"),
    "hypot": (2, (), "broadcast"),
    "floor_divide": (2, (), "broadcast"),
    "mod": (2, (), "broadcast"),
    "fmod": (2, (), "broadcast"),
    "remainder": (2, (), "broadcast"),
    "deg2rad": (1, (), "none"),
    "rad2deg": (1, (), "none"),
    "degrees": (1, (), "none"),
    "radians": (1, (), "none"),
    "absolute": (1, (), "none"),
    "fabs": (1, (), "none"),
    "cbrt": (1, (), "none"),
    "rint": (1, (), "none"),
    "fix": (1, (), "none"),
    "sinc": (1, (), "none"),
    "nan_to_num": (1, ("copy", "nan", "posinf", "neginf"), "none"),
    "nanmean": (1, ("axis", "keepdims"), "none"),
    "nansum": (1, ("axis", "keepdims"), "none"),
    "nanmax": (1, ("axis", "keepdims"), "none"),
    "nanmin": (1, ("axis", "keepdims"), "none"),
    "nanstd": (1, ("axis", "keepdims", "ddof"), "none"),
    "nanvar": (1, ("axis", "keepdims", "ddof"), "none"),
    "amax": (1, ("axis", "keepdims"), "none"),
    "amin": (1, ("axis", "keepdims"), "none"),
    "ptp": (1, ("axis", "keepdims"), "none"),
    "average": (1, ("axis", "@weights", "returned", "keepdims"), "none"),
    "argwhere": (1, (), "none"),
    "flatnonzero": (1, (), "none"),
    "diff": (1, ("n", "axis", "@prepend", "@append"), "none"),
    "roll": (1, ("shift", "axis"), "none"),
    "rot90": (1, ("k", "axes"), "none"),
    "triu": (1, ("k",), "none"),
    "tril": (1, ("k",), "none"),
    "swapaxes": (1, ("axis1", "axis2"), "none"),
    "moveaxis": (1, ("source", "destination"), "none"),
    "array_split": (1, ("indices_or_sections", "axis"), "none"),
    "delete": (1, ("obj", "axis"), "none"),
    "lexsort": (1, ("axis",), "none"),
    "take": (2, ("axis",), "none"),
    "append": (2, ("axis",), "sum"),
    "searchsorted": (2, ("side",), "none"),
    "digitize": (2, ("right",), "none"),
    "cross": (2, ("axisa", "axisb", "axisc", "axis"), "broadcast"),
    "interp": (3, ("left", "right", "period"), "none"),
    "trapezoid": (1, ("@x", "dx", "axis"), "none"),
    "gradient": (1, ("axis", "edge_order"), "rows"),
    "polyval": (2, (), "none"),
    # set operations: a result no larger than the inputs; no `kind=` (its 'table' kind takes
    # memory by the range of the values, not their number)
    "isin": (2, ("assume_unique", "invert"), "none"),
    "intersect1d": (2, ("assume_unique", "return_indices"), "none"),
    "setdiff1d": (2, ("assume_unique",), "none"),
    "union1d": (2, (), "sum"),
    # sets, NaN-skipping and shape helpers of notebooks' data preparation (probe40)
    "setxor1d": (2, ("assume_unique",), "sum"),
    "flipud": (1, (), "none"),
    "fliplr": (1, (), "none"),
    "nanargmax": (1, ("axis", "keepdims"), "none"),
    "nanargmin": (1, ("axis", "keepdims"), "none"),
    "nanmedian": (1, ("axis", "keepdims"), "none"),
    "nanprod": (1, ("axis", "keepdims"), "none"),
    "nancumsum": (1, ("axis",), "none"),
    "take_along_axis": (2, ("axis",), "broadcast"),
    "vdot": (2, (), "none"),
    "trim_zeros": (1, ("trim",), "none"),
    "extract": (2, (), "none"),
    "rollaxis": (1, ("axis", "start"), "none"),
    "partition": (1, ("kth", "axis"), "none"),
    "ndim": (1, (), "none"),
    "size": (1, ("axis",), "none"),
    "diagonal": (1, ("offset", "axis1", "axis2"), "none"),
}


def _plain_value(v: Any, what: str, fn: str) -> Any:
    """A plain argument (a number, a bool, text, None, or a tuple/list of such)."""
    if isinstance(v, np.generic):
        return v.item()
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (tuple, list)) and len(v) <= 64:
        return type(v)(_plain_value(x, what, fn) for x in v)
    raise GradcliError(
        f"numpy.{fn}(): {what} must be a number, not {typename(v)}",
        hint="give plain numbers (arrays only where NumPy takes an array)",
    ).mirror("TypeError")


def _plain(name: str, arrays: int, keywords: tuple[str, ...], sized: str) -> Callable[..., Any]:
    np_fn = getattr(np, name)
    host = _host(name, np_fn)
    named = {k.lstrip("@"): k.startswith("@") for k in keywords}

    def call(*args: Any, **kwargs: Any) -> Any:
        if len(args) < arrays:
            raise GradcliError(
                f"{name}() missing {arrays - len(args)} required positional argument"
                + ("s" if arrays - len(args) > 1 else "")
            ).mirror("TypeError")
        if isinstance(np_fn, np.ufunc) and not kwargs and len(args) == np_fn.nin:
            return _ufunc_call(host, name, args)
        ops = [_array(a, name) for a in args[:arrays]]
        rest = [
            _plain_value(v, f"argument {i + arrays + 1}", name) for i, v in enumerate(args[arrays:])
        ]
        kw: dict[str, Any] = {}
        for key, v in kwargs.items():
            if key not in named:
                raise GradcliError(f"{name}() got an unexpected keyword argument '{key}'").mirror(
                    "TypeError"
                )
            kw[key] = (
                _array(v, name) if named[key] and v is not None else _plain_value(v, key, name)
            )
        shapes = [o.shape for o in ops] + [
            v.shape for v in kw.values() if isinstance(v, np.ndarray)
        ]
        if sized == "broadcast":
            try:
                shape = np.broadcast_shapes(*shapes)
            except ValueError:
                return _numpy(lambda: host(*ops, *rest, **kw))  # NumPy's words for the shapes
            size_check(shape, f"the result of numpy.{name}()")
        elif sized == "sum":
            size_check((sum(int(np.prod(sh)) for sh in shapes),), f"the result of numpy.{name}()")
        elif sized == "rows":
            size_check((int(ops[0].size) * max(1, ops[0].ndim),), f"the result of numpy.{name}()")
        return _numpy(lambda: host(*ops, *rest, **kw))

    call.__name__ = name
    return call


def _ufunc_call(np_fn: Any, name: str, args: tuple) -> Any:
    """`np.arctan2(a, 1)`, `np.copysign(t, -1)`: NumPy's ufunc on arrays, lists and numbers, a
    Python number kept "weak" (NumPy 2: a float32 array stays float32). A tensor is read as
    NumPy reads it (its `__array__`, refused on a tensor that requires grad as `t.numpy()`
    is) and the result made a tensor again (`Tensor.__array_wrap__`, with NumPy's
    DeprecationWarning)."""
    from .arrays import _operand
    from .ndinterop import tensor_array, wrapped

    ops = [
        tensor_array(a)
        if isinstance(a, Tensor)
        else a
        if type(a) in (bool, int, float)
        else _operand(a, name)
        for a in args
    ]
    try:
        shape = np.broadcast_shapes(*(np.shape(o) for o in ops))
    except ValueError:
        return _numpy(lambda: np_fn(*ops))  # NumPy's words for the shapes
    size_check(shape, f"the result of numpy.{name}()")
    if any(isinstance(a, Tensor) for a in args):
        with np.errstate(all="ignore"):
            try:
                result = np_fn(*ops)
            except (TypeError, ValueError, OverflowError) as e:
                raise GradcliError(str(e)).mirror(type(e).__name__).pytorch() from None
        return wrapped(result)
    return _numpy(lambda: np_fn(*ops))


def _memory_operand(v: Any, fn: str) -> np.ndarray:
    """What NumPy makes of an argument of np.shares_memory: the array itself, a tensor's
    values (its `__array__`: the same memory), a new array of a number or a list."""
    from .arrays import _operand
    from .ndinterop import tensor_array

    if isinstance(v, Tensor):
        return tensor_array(v)
    if type(v) is bool:
        return np.asarray(v)
    return _operand(v, fn)


def _shares_memory(a: Any, b: Any, max_work: Any = None) -> bool:
    """`np.shares_memory(a, b)`: whether the two read the same bytes (arrays from `t.numpy()`,
    `torch.from_numpy`, views). NumPy's exact answer is a search that can grow with the
    arrays' strides: its work is bounded by the tensor element limit, a bound reached said."""
    x, y = _memory_operand(a, "shares_memory"), _memory_operand(b, "shares_memory")
    work = -1 if max_work is None else _int(max_work, "max_work")
    cap = limits.TENSOR_ELEMENTS.value
    try:
        return bool(np.shares_memory(x, y, max_work=cap if work < 0 else min(work, cap)))
    except np.exceptions.TooHardError:
        if 0 <= work <= cap:  # (0: the bounds overlap, NumPy's word for undecided)
            raise GradcliError("Exceeded max_work").mirror("TooHardError") from None
        raise limits.LimitError(
            f"numpy.shares_memory() needs more than {cap:,} steps to decide",
            limit=limits.TENSOR_ELEMENTS.name,
            hint="np.may_share_memory(a, b) compares the arrays' bounds only",
        ) from None


def _may_share_memory(a: Any, b: Any, max_work: Any = None) -> bool:
    """`np.may_share_memory(a, b)`: whether the two arrays' memory bounds overlap (with
    `max_work`, np.shares_memory's search)."""
    if max_work is not None and _int(max_work, "max_work") != 0:
        return _shares_memory(a, b, max_work)
    x, y = _memory_operand(a, "may_share_memory"), _memory_operand(b, "may_share_memory")
    return bool(np.may_share_memory(x, y))


def _window(name: str) -> Callable[..., Any]:
    """`np.hanning(M)` and its kin (`np.kaiser(M, beta)`): NumPy's window of M points."""
    np_fn = getattr(np, name)

    def call(M: Any, *beta: Any) -> Any:  # noqa: N803 - NumPy's name
        m = _plain_value(M, "M", name)
        if isinstance(m, (int, float)) and not isinstance(m, bool):
            size_check((max(int(m), 0),), f"the result of numpy.{name}()")
        rest = [_plain_value(b, "beta", name) for b in beta]
        return _numpy(lambda: np_fn(m, *rest))

    call.__name__ = name
    return call


def functions() -> dict[str, Any]:
    """The members these add to the `numpy` namespace."""
    from .values import Builtin

    out: dict[str, Any] = {name: _elementwise(name) for name in ELEMENTWISE}
    # raw: finfo sees a torch dtype as the program's value (NumPy takes it for an object)
    out["finfo"] = Builtin("numpy.finfo", _finfo)
    for name, (arrays, keywords, sized) in _PLAIN.items():
        out[name] = _plain(name, arrays, keywords, sized)
    out.update(
        {
            "zeros_like": _like("zeros_like"),
            "ones_like": _like("ones_like"),
            "full_like": _like("full_like"),
            "unique": _unique,
            "shares_memory": _shares_memory,
            "may_share_memory": _may_share_memory,
            "logical_and": _logical("logical_and"),
            "logical_or": _logical("logical_or"),
            "logical_xor": _logical("logical_xor"),
            **{name: _atleast(name) for name in ("atleast_1d", "atleast_2d", "atleast_3d")},
            "flip": _flip,
            "expand_dims": _expand_dims,
            "reshape": _reshape,
            "any": _reduce("any"),
            "all": _reduce("all"),
            "median": _reduce("median"),
            "cumprod": _reduce("cumprod"),
            "count_nonzero": _reduce("count_nonzero"),
            **{
                name: _quantiles(name)
                for name in ("percentile", "quantile", "nanpercentile", "nanquantile")
            },
            "iinfo": Builtin("numpy.iinfo", _iinfo),
            "isclose": _isclose,
            "array_equal": _array_equal,
            "nonzero": _nonzero,
            "outer": _outer,
            "convolve": _sliding("convolve"),
            "correlate": _sliding("correlate"),
            "pad": _pad,
            "insert": _insert,
            "apply_along_axis": _apply_along_axis,
            "mgrid": _GridTrick("mgrid"),
            "ogrid": _GridTrick("ogrid"),
            "tile": _tile,
            "repeat": _repeat,
            "diag": _diag,
            "trace": _trace,
            "einsum": _einsum,
            "split": _split,
            "meshgrid": _meshgrid,
            "identity": _identity,
            "empty": _empty,
            "logspace": _logspace,
            "kron": _kron,
            "histogram": _histogram,
            "bincount": _bincount,
            "polyfit": _polyfit,
            "cov": _cov,
            **{name: _window(name) for name in ("hanning", "hamming", "blackman", "bartlett")},
            "kaiser": _window("kaiser"),
            "c_": _IndexTrick("c_"),
            "r_": _IndexTrick("r_"),
            "set_printoptions": numpy_printing.set_printoptions,
            "get_printoptions": numpy_printing.get_printoptions,
            "printoptions": numpy_printing.printoptions,
        }
    )
    return out


# --- numpy.testing -----------------------------------------------------------------------------
# `np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-5)`: forum answers check a
# gradient so. NumPy's own assertions run on the program's data (arrays, tensors as NumPy
# converts them, numbers, strings, lists of those), their failure the program's catchable
# AssertionError in NumPy's words.
_TESTING: dict[str, tuple[str, ...]] = {
    # the keywords after the two values, in NumPy's order of positions
    "assert_allclose": ("rtol", "atol", "equal_nan", "err_msg", "verbose"),
    "assert_almost_equal": ("decimal", "err_msg", "verbose"),
    "assert_array_almost_equal": ("decimal", "err_msg", "verbose"),
    "assert_array_equal": ("err_msg", "verbose"),
    "assert_equal": ("err_msg", "verbose"),
}
_TESTING_KEYWORD_ONLY = {"assert_allclose": ("strict",), "assert_array_equal": ("strict",)}
_TESTING_KEYWORD_ONLY["assert_equal"] = ("strict",)


def _tested(v: Any, fn: str) -> Any:
    """A value NumPy's assertion may see: an array (a tensor's values, as NumPy converts a
    tensor), a number, a string, or lists and tuples of those (walked first, counted)."""
    from .arrays import numpy_data, to_array

    if isinstance(v, Tensor):
        return to_array(v, fn=fn)
    if isinstance(v, np.ndarray):
        if v.dtype == object:
            raise NotSupported(f"numpy.testing.{fn}() of an object array is not supported")
        return numpy_data(v)
    todo, seen = [(v, 0)], 0
    while todo:
        item, depth = todo.pop()
        seen += 1
        limits.LIST_ITEMS.check(seen, f"the items given to numpy.testing.{fn}()")
        if type(item) in (list, tuple):
            # (NumPy walks nested lists by recursion: their depth is bounded first)
            limits.NESTING.check(depth + 1, f"the nesting of lists given to numpy.testing.{fn}()")
            todo.extend((x, depth + 1) for x in item)
        elif isinstance(item, np.ndarray) and item.dtype != object:
            continue
        elif not isinstance(item, (bool, int, float, str, np.bool_, np.number)):
            raise GradcliError(
                f"numpy.testing.{fn}() takes arrays, numbers, strings or lists of them, "
                f"not {typename(item)}"
            ).mirror("TypeError")
    if isinstance(v, (list, tuple)):
        return _copied(v)
    return v


def _copied(v: Any) -> Any:
    """A list or tuple rebuilt of plain lists, tuples and items (a program's list of arrays
    with their data as NumPy's own views)."""
    from .arrays import numpy_data

    if isinstance(v, np.ndarray):
        return numpy_data(v)
    if type(v) in (list, tuple):
        return type(v)(_copied(x) for x in v)
    return v


def _testing(name: str) -> Callable[..., Any]:
    fn = getattr(np.testing, name)
    positional = _TESTING[name]
    keywords = positional + _TESTING_KEYWORD_ONLY.get(name, ())

    def call(actual: Any, desired: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(positional):
            raise GradcliError(
                f"{name}() takes from 2 to {2 + len(positional)} positional arguments but "
                f"{2 + len(args)} were given"
            ).mirror("TypeError")
        given = dict(zip(positional, args, strict=False))
        for k, v in kwargs.items():
            if k not in keywords:
                raise GradcliError(f"{name}() got an unexpected keyword argument '{k}'").mirror(
                    "TypeError"
                )
            if k in given:
                raise GradcliError(f"{name}() got multiple values for argument '{k}'").mirror(
                    "TypeError"
                )
            given[k] = v
        for k, v in given.items():
            if k == "err_msg":
                if not isinstance(v, str):
                    raise GradcliError(f"numpy.testing.{name}(): err_msg must be a string")
            elif k in ("equal_nan", "verbose", "strict"):
                given[k] = bool(v)
            elif k == "decimal":
                given[k] = _int(v, "decimal")
            else:
                given[k] = _number(v, f"testing.{name}")
        a, b = _tested(actual, name), _tested(desired, name)
        try:
            with np.errstate(all="ignore"):
                fn(a, b, **given)
        except AssertionError as e:
            raise GradcliError(str(e)).mirror("AssertionError") from None
        except (ValueError, TypeError) as e:  # shapes that do not broadcast...
            raise GradcliError(str(e)).mirror(type(e).__name__) from None

    call.__name__ = name
    return call


def testing_functions() -> dict[str, Any]:
    """The members of the `numpy.testing` namespace (the rest are refused by name)."""
    return {name: _testing(name) for name in _TESTING}
