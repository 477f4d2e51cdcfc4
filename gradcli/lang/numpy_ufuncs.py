"""NumPy's ufuncs as objects a program holds (`np.add`, `np.maximum`, `np.exp`): called, they
are the `numpy` namespace's functions; their methods (`np.add.reduce`, `.accumulate`,
`.outer`, `.reduceat`, `.at`) run NumPy's own on arrays, numbers and lists, each result sized
before NumPy makes it (the tensor element limit). A tensor is read as NumPy reads it
(`t.numpy()`, refused for one that requires grad), and a reduction or accumulation of it made
a tensor again, as `Tensor.__array_wrap__` makes it in PyTorch; `.outer` of tensors is
NumPy's array, as there. `.at` changes an array in place (an array that shares a tensor's
memory changes the tensor too); a tensor given to it is refused (`index_add_` is PyTorch's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core.tensor import Tensor, typename
from ..ops.arithmetic import size_check

_METHODS = ("reduce", "accumulate", "outer", "reduceat", "at")
# (the ufunc's own fields a program reads: `np.add.nin`, `np.add.identity`)
_FIELDS = ("nin", "nout", "nargs", "identity", "ntypes", "types", "signature")


class Ufunc:
    """`np.add`: prints `<ufunc 'add'>`; calling it is the namespace's function."""

    __slots__ = ("fn", "np", "__name__")

    def __init__(self, np_ufunc: np.ufunc, fn: Callable[..., Any]) -> None:
        self.np = np_ufunc
        self.fn = fn
        self.__name__ = np_ufunc.__name__

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<ufunc '{self.np.__name__}'>"

    def program_typename(self) -> str:
        return "numpy.ufunc"

    def program_name(self) -> str:
        return self.np.__name__

    def program_attribute(self, attr: str) -> Any:
        from .values import Builtin

        if attr in _METHODS:
            shown = f"<built-in method {attr} of numpy.ufunc object at {id(self.np):#x}>"
            if attr != "at" and (self.np.nin != 2 or self.np.nout != 1):
                # (NumPy's ufunc has the method and refuses it when called)
                def refuse(*args: Any, **kwargs: Any) -> Any:
                    raise GradcliError(
                        f"{'outer product' if attr == 'outer' else attr} only supported for binary "
                        "functions"
                    ).mirror("ValueError")

                return Builtin(f"{self.np.__name__}.{attr}", refuse, shown=shown)
            method = {
                "reduce": _reduce,
                "accumulate": _accumulate,
                "outer": _outer,
                "reduceat": _reduceat,
                "at": _at,
            }[attr]
            return Builtin(
                f"{self.np.__name__}.{attr}",
                lambda *a, **k: method(self.np, *a, **k),
                raw=False,
                shown=shown,
            )
        if attr in _FIELDS:
            value = getattr(self.np, attr)
            return list(value) if isinstance(value, list) else value
        if attr == "__name__":
            return self.np.__name__
        raise GradcliError(f"'numpy.ufunc' object has no attribute '{attr}'").mirror(
            "AttributeError"
        )


def _operand(v: Any, fn: str) -> Any:
    from .arrays import _operand as array_operand
    from .ndinterop import tensor_array

    if isinstance(v, Tensor):
        return tensor_array(v)
    return array_operand(v, fn)


def _run(name: str, method: str, *args: Any, **kwargs: Any) -> Any:
    """NumPy's `ufunc.method(...)`: on the host's kernels where the ufunc's bits depend on
    them (`hostnumpy`), its errors the program's."""
    from .hostnumpy import UFUNCS, compute
    from .values import numpy_call

    if name in UFUNCS and method != "at":
        return numpy_call(lambda: compute(f"{name}.{method}", *args, **kwargs))
    return numpy_call(lambda: getattr(getattr(np, name), method)(*args, **kwargs))


def _axis(v: Any, fn: str) -> Any:
    from .numpy_extra import _axis as axis_value

    return axis_value(v)


def _options(u: np.ufunc, dtype: Any, keepdims: Any = False, **more: Any) -> dict[str, Any]:
    from .arrays import _dtype

    out: dict[str, Any] = {}
    if dtype is not None:
        out["dtype"] = _dtype(dtype, f"{u.__name__}.reduce")
    if keepdims:
        out["keepdims"] = True
    for key, v in more.items():
        if v is not None:
            from .numpy_extra import _number

            out[key] = _number(v, f"{u.__name__}.reduce")
    return out


def _wrapped_if(tensor: bool, result: Any) -> Any:
    if not tensor:
        return result
    from .ndinterop import wrapped

    return wrapped(np.asarray(result))


def _reduce(
    u: np.ufunc,
    array: Any,
    axis: Any = 0,
    dtype: Any = None,
    out: Any = None,
    keepdims: Any = False,
    initial: Any = None,
) -> Any:
    """`np.add.reduce(a, axis=0)`: NumPy's reduction of the axis (None: of all), `initial`
    its start value (NumPy's error for an empty reduction of a ufunc with no identity)."""
    _no_out(u, "reduce", out)
    a = _operand(array, f"{u.__name__}.reduce")
    options = _options(u, dtype, keepdims, initial=initial)
    result = _run(u.__name__, "reduce", a, axis=_axis(axis, "reduce"), **options)
    return _wrapped_if(isinstance(array, Tensor), result)


def _accumulate(u: np.ufunc, array: Any, axis: Any = 0, dtype: Any = None, out: Any = None) -> Any:
    """`np.maximum.accumulate(a)`: the running results along the axis (the operand's size)."""
    _no_out(u, "accumulate", out)
    a = _operand(array, f"{u.__name__}.accumulate")
    result = _run(u.__name__, "accumulate", a, axis=_axis(axis, "accumulate"), **_options(u, dtype))
    return _wrapped_if(isinstance(array, Tensor), result)


def _outer(u: np.ufunc, a: Any, b: Any, dtype: Any = None, out: Any = None) -> Any:
    """`np.multiply.outer(a, b)`: every pair's result, of shape a.shape + b.shape."""
    _no_out(u, "outer", out)
    x, y = _operand(a, f"{u.__name__}.outer"), _operand(b, f"{u.__name__}.outer")
    size_check(x.shape + y.shape, f"the result of numpy.{u.__name__}.outer()")
    return _run(u.__name__, "outer", x, y, **_options(u, dtype))


def _reduceat(
    u: np.ufunc, array: Any, indices: Any, axis: Any = 0, dtype: Any = None, out: Any = None
) -> Any:
    """`np.add.reduceat(a, [0, 4])`: the reductions of the slices that start at the indices."""
    _no_out(u, "reduceat", out)
    a = _operand(array, f"{u.__name__}.reduceat")
    idx = _operand(indices, f"{u.__name__}.reduceat")
    ax = _axis(axis, "reduceat")
    rows = int(a.size) // max(int(a.shape[ax]), 1) if a.ndim and isinstance(ax, int) else 1
    size_check((max(int(idx.size), 1) * rows,), f"the result of numpy.{u.__name__}.reduceat()")
    result = _run(u.__name__, "reduceat", a, idx, axis=ax, **_options(u, dtype))
    return _wrapped_if(isinstance(array, Tensor), result)


def _at(u: np.ufunc, a: Any, indices: Any, b: Any = None) -> None:
    """`np.add.at(counts, labels, 1)`: the ufunc applied in place at the indices, a repeated
    index each time (unlike `counts[labels] += 1`)."""
    if isinstance(a, Tensor):
        raise NotSupported(
            f"numpy.{u.__name__}.at() of a tensor is not supported by gradcli",
            hint="use the tensor's own index_add_ (or index_put_ with accumulate=True)",
        )
    if not isinstance(a, np.ndarray):
        raise GradcliError(
            f"numpy.{u.__name__}.at() changes an array in place: got {typename(a)}"
        ).mirror("TypeError")
    if not a.flags.writeable:
        raise GradcliError("assignment destination is read-only").mirror("ValueError")
    if isinstance(indices, tuple):
        idx: Any = tuple(
            i if isinstance(i, slice) else _operand(i, f"{u.__name__}.at") for i in indices
        )
    elif isinstance(indices, slice):
        idx = indices
    else:
        idx = _operand(indices, f"{u.__name__}.at")
    if u.nin == 2:
        if b is None:
            raise GradcliError("second operand needed for ufunc").mirror("ValueError")
        value = b if type(b) in (bool, int, float, complex) else _operand(b, f"{u.__name__}.at")
        _run(u.__name__, "at", a, idx, value)
    else:
        _run(u.__name__, "at", a, idx)


def _no_out(u: np.ufunc, method: str, out: Any) -> None:
    if out is not None:
        raise NotSupported(
            f"numpy.{u.__name__}.{method}(out=...) is not supported by gradcli",
            hint=f"name the result: r = np.{u.__name__}.{method}(...)",
        )


# NumPy 2's other names of its functions (np.acos is np.arccos), set beside them.
ALIASES = {
    "acos": "arccos",
    "asin": "arcsin",
    "atan": "arctan",
    "acosh": "arccosh",
    "asinh": "arcsinh",
    "atanh": "arctanh",
    "atan2": "arctan2",
    "pow": "power",
    "concat": "concatenate",
}


def wrap_ufuncs(members: dict[str, Any]) -> None:
    """The `numpy` namespace's functions that are NumPy ufuncs, made ufunc objects."""
    for name, fn in list(members.items()):
        # (NumPy's own table: getattr would import its lazy submodules, np.testing...)
        u = np.__dict__.get(name)
        if isinstance(u, np.ufunc) and callable(fn) and not isinstance(fn, Ufunc):
            members[name] = Ufunc(u, fn)
