"""`numpy.fft` (`np.fft.rfft(x)`, `from numpy.fft import fft, fftfreq`, `import numpy.fft as
nf`): NumPy's own transforms (pocketfft) on the program's arrays, so the values are NumPy's to
the bit; each result's size is checked against the tensor limit before it is made (`n=` and
`s=` can ask for a longer transform than the input). Tensors are refused here, as elsewhere in
numpy's functions: `torch.fft` would be PyTorch's (MKL's) transform, which gradcli lacks."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..ops.arithmetic import size_check
from .numpy_extra import _array, _int, _numpy, _plain_value

# one-axis transforms (n, axis, norm) and several-axes ones (s, axes, norm); for each, whether
# its output along a transformed axis defaults to about twice the input's (irfft, hfft)
_ONE_AXIS = {
    "fft": False,
    "ifft": False,
    "rfft": False,
    "irfft": True,
    "hfft": True,
    "ihfft": False,
}
_AXES = {
    "fft2": False,
    "ifft2": False,
    "fftn": False,
    "ifftn": False,
    "rfft2": False,
    "irfft2": True,
    "rfftn": False,
    "irfftn": True,
}


def _checked_size(x: np.ndarray, sizes: dict[int, int | None], doubles: bool, fn: str) -> None:
    """The result's number of elements, bounded before NumPy makes it."""
    shape = list(x.shape)
    for axis, n in sizes.items():
        if not -len(shape) <= axis < len(shape):
            return  # (NumPy's own error follows)
        if n is not None:
            shape[axis] = max(int(n), 0)
        elif doubles:
            shape[axis] = 2 * shape[axis]
    size_check(tuple(shape), f"the result of numpy.fft.{fn}()")


def _warned(fn: Any) -> Any:
    """NumPy's result, the warnings it gives (NumPy 2's DeprecationWarning for `s=` without
    `axes=`) given as the program's, as Python shows them for a script."""
    import warnings

    from .values import current

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = _numpy(fn)
    for w in caught:
        current().python_warning(str(w.message), w.category.__name__, "__main__")
    return out


def _one_axis(name: str, doubles: bool) -> Any:
    np_fn = getattr(np.fft, name)

    def call(a: Any, n: Any = None, axis: Any = -1, norm: Any = None, out: Any = None) -> Any:
        if out is not None:
            raise GradcliError(f"numpy.fft.{name}(out=...) is not supported by gradcli").mirror(
                None
            )
        x = _array(a, f"fft.{name}")
        n = None if n is None else _int(n, "n")
        axis = _int(axis, "axis")
        norm = _plain_value(norm, "norm", f"fft.{name}")
        _checked_size(x, {axis: n}, doubles, name)
        return _numpy(lambda: np_fn(x, n, axis, norm))

    call.__name__ = name
    return call


def _several_axes(name: str, doubles: bool) -> Any:
    np_fn = getattr(np.fft, name)
    two = name.endswith("2")

    def call(a: Any, s: Any = None, axes: Any = (-2, -1) if two else None, norm: Any = None,
             out: Any = None) -> Any:  # fmt: skip
        if out is not None:
            raise GradcliError(f"numpy.fft.{name}(out=...) is not supported by gradcli").mirror(
                None
            )
        x = _array(a, f"fft.{name}")
        s = _plain_value(s, "s", f"fft.{name}")
        axes = _plain_value(axes, "axes", f"fft.{name}")
        norm = _plain_value(norm, "norm", f"fft.{name}")
        if not isinstance(s, (tuple, list, type(None))) or not isinstance(
            axes, (tuple, list, type(None))
        ):
            return _numpy(lambda: np_fn(x, s, axes, norm))  # (NumPy's TypeError)
        if s is not None:
            s = tuple(_int(v, "s") for v in s)
        if axes is not None:
            axes = tuple(_int(v, "axes") for v in axes)
        chosen = axes if axes is not None else tuple(range(-len(s), 0)) if s else ()
        if s is not None and len(s) == len(chosen):
            sizes: dict[int, int | None] = dict(zip(chosen, s))
        else:
            sizes = dict.fromkeys(chosen if axes is not None else range(-x.ndim, 0))
        _checked_size(x, sizes, doubles, name)
        return _warned(lambda: np_fn(x, s, axes, norm))

    call.__name__ = name
    return call


def _freq(name: str) -> Any:
    np_fn = getattr(np.fft, name)

    def call(n: Any, d: Any = 1.0, device: Any = None) -> Any:
        n = _int(n, "n")
        d = _plain_value(d, "d", f"fft.{name}")
        size_check((max(n, 0),), f"the result of numpy.fft.{name}()")
        return _numpy(lambda: np_fn(n, d))

    call.__name__ = name
    return call


def _shift(name: str) -> Any:
    np_fn = getattr(np.fft, name)

    def call(x: Any, axes: Any = None) -> Any:
        arr = _array(x, f"fft.{name}")
        axes = _plain_value(axes, "axes", f"fft.{name}")
        return _numpy(lambda: np_fn(arr, axes))

    call.__name__ = name
    return call


def functions() -> dict[str, Any]:
    """The members of the `numpy.fft` namespace."""
    from .values import Builtin

    out: dict[str, Any] = {}
    for name, doubles in _ONE_AXIS.items():
        out[name] = Builtin(f"numpy.fft.{name}", _one_axis(name, doubles))
    for name, doubles in _AXES.items():
        out[name] = Builtin(f"numpy.fft.{name}", _several_axes(name, doubles))
    for name in ("fftfreq", "rfftfreq"):
        out[name] = Builtin(f"numpy.fft.{name}", _freq(name))
    for name in ("fftshift", "ifftshift"):
        out[name] = Builtin(f"numpy.fft.{name}", _shift(name))
    return out
