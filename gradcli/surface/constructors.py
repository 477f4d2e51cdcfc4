"""Tensor constructors as PyTorch's: `torch.tensor`, `torch.Tensor(...)`, zeros / ones / full /
eye / arange / linspace / rand / randn and their `_like` forms, `Variable`; the seed and the
default dtype."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.tensor import Settings, Tensor, data_array, typename
from ..ops.arithmetic import size_check, tensor_arg
from .args import float_dtype, int_arg, new_tensor, shape_arg


def manual_seed(seed: int) -> None:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise GradcliError(f"manual_seed expected an int, not {typename(seed)}")
    # As PyTorch: any int is a seed (negative ones wrap around 2**64).
    Settings.seed = int(seed) % 2**64
    Settings._rng = None


def set_default_dtype(dtype: Any) -> None:
    Settings.default_dtype = np.dtype(dtype)


def tensor(data: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None) -> Tensor:
    return new_tensor(data_array(data, dtype), None, requires_grad)


def legacy_tensor(*args: Any, requires_grad: bool = False, dtype: Any = None) -> Tensor:  # noqa: N802
    """`torch.Tensor(data)`, or `torch.Tensor(2, 3)` (sizes: gradcli fills zeros)."""
    dt = float_dtype(dtype)
    if args and all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        return new_tensor(np.zeros(shape_arg(args), dtype=dt), None, requires_grad)
    if len(args) != 1:
        raise GradcliError("torch.Tensor() takes the data (a nested list) or sizes")
    return new_tensor(data_array(args[0], dt), None, requires_grad)


def FloatTensor(*args: Any, requires_grad: bool = False) -> Tensor:  # noqa: N802
    return legacy_tensor(*args, requires_grad=requires_grad, dtype=np.float32)


def DoubleTensor(*args: Any, requires_grad: bool = False) -> Tensor:  # noqa: N802
    return legacy_tensor(*args, requires_grad=requires_grad, dtype=np.float64)


def Variable(t: Any, requires_grad: bool = False, volatile: bool = False) -> Tensor:  # noqa: N802
    """`torch.autograd.Variable`: since PyTorch 0.4 a Variable is a Tensor."""
    t = tensor_arg(t, "Variable's data")
    if requires_grad:
        if t.node is not None:
            return t
        out = Tensor(t.data, requires_grad=True)
        return out
    return t


def _filled(fill: Callable[[tuple[int, ...], np.dtype], np.ndarray]) -> Callable[..., Tensor]:
    def make(
        *size: Any,
        dtype: Any = None,
        requires_grad: bool = False,
        device: Any = None,
        out: Any = None,
    ) -> Tensor:
        shape = shape_arg(size)
        return new_tensor(fill(shape, float_dtype(dtype)), None, requires_grad)

    return make


zeros = _filled(lambda s, d: np.zeros(s, dtype=d))


ones = _filled(lambda s, d: np.ones(s, dtype=d))


empty = zeros  # gradcli has no uninitialised memory: empty() is zeros


rand = _filled(lambda s, d: Settings.rng().random(s).astype(d))


randn = _filled(lambda s, d: Settings.rng().standard_normal(s).astype(d))


def full(
    size: Any, fill_value: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None
) -> Tensor:
    shape = shape_arg((size,) if isinstance(size, int) else tuple(size))
    return new_tensor(
        np.full(shape, float(fill_value), dtype=float_dtype(dtype)), None, requires_grad
    )


def eye(
    n: int, m: int | None = None, dtype: Any = None, requires_grad: bool = False, device: Any = None
) -> Tensor:
    shape = shape_arg((n, n if m is None else m))
    return new_tensor(np.eye(shape[0], shape[1], dtype=float_dtype(dtype)), None, requires_grad)


def arange(
    *args: Any,
    dtype: Any = None,
    requires_grad: bool = False,
    device: Any = None,
    start: Any = None,
    end: Any = None,
    step: Any = None,
) -> Tensor:
    if start is not None or end is not None:
        args = (0 if start is None else start, end) + ((step,) if step is not None else ())
    if not 1 <= len(args) <= 3:
        raise GradcliError("arange() takes end, or start, end[, step]")
    for a in args:
        if isinstance(a, bool) or not isinstance(a, (int, float)):
            raise GradcliError(f"arange() arguments must be numbers, not {typename(a)}")
    s, e, st = (
        (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) == 3 else 1)
    )
    if st == 0:
        raise GradcliError("step must be nonzero")
    if not all(math.isfinite(a) for a in (s, e, st)):
        raise GradcliError("arange(): start, end and step must be finite numbers")
    n = max(0, math.ceil((e - s) / st))
    size_check((n,), "arange's length")
    # As PyTorch: integer arguments give an int64 range (indices), any float a float one.
    ints = dtype is None and all(isinstance(a, int) for a in (s, e, st))
    dt = np.int64 if ints else float_dtype(dtype)
    return new_tensor(np.arange(s, e, st, dtype=dt), None, requires_grad)


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
    return new_tensor(
        np.linspace(float(start), float(end), n, dtype=float_dtype(dtype)), None, requires_grad
    )


def _like(fill: Callable[..., Tensor]) -> Callable[..., Tensor]:
    def make(
        t: Any, *args: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None
    ) -> Tensor:
        t = tensor_arg(t, "input")
        dt = t.dtype if dtype is None else dtype
        if np.dtype(dt).kind != "f":
            dt = Settings.default_dtype
        if args:
            return fill(t.shape, *args, dtype=dt, requires_grad=requires_grad)
        return fill(t.shape, dtype=dt, requires_grad=requires_grad)

    return make


zeros_like = _like(zeros)


ones_like = _like(ones)


empty_like = _like(zeros)


rand_like = _like(rand)


randn_like = _like(randn)


full_like = _like(full)
