"""`torch.signal.windows`: PyTorch's Python window functions (symmetric by default, `sym=`),
composed here of the same torch functions in the same steps (linspace, exp, sin, cos, i0...),
so their values, and with requires_grad=True their graphs, are PyTorch's."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core import dtypes as D
from ..core.tensor import Settings, Tensor, typename
from ..ops import arithmetic as A
from . import names


def _f(name: str) -> Any:
    return names.FUNCTIONS[name]


def _checks(fn: str, m: Any, dtype: Any) -> np.dtype:
    if not isinstance(m, (int, float)) or isinstance(m, bool):
        # PyTorch's first use of M is `M < 0`: Python's TypeError
        raise GradcliError(
            f"'<' not supported between instances of '{typename(m)}' and 'int'",
            hint="the window length M is an int: windows.hann(8)",
        ).mirror("TypeError")
    if not isinstance(m, int):
        raise GradcliError(
            f"{fn}(): the window length M must be an int, not {typename(m)} (PyTorch's "
            "linspace refuses it)",
            hint=f"{fn}({int(m) if math.isfinite(m) else 8})",
        ).mirror("TypeError")
    dt = Settings.default_dtype if dtype is None else D.check_dtype(dtype, fn=fn)
    if m < 0:
        raise GradcliError(f"{fn} requires non-negative window length, got M={m}").mirror(
            "ValueError"
        )
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise GradcliError(
            f"{fn} expects float32 or float64 dtypes, got: torch.{D.TORCH_NAMES[dt]}"
        ).mirror("ValueError")
    A.size_check((m,), f"{fn}'s window")
    return dt


def _trivial(m: int, dt: np.dtype, requires_grad: bool, one: bool = False) -> Tensor | None:
    """The window of no points, and (`one`: for the windows that say so first) of one: 1."""
    if m == 0:
        return Tensor(np.zeros(0, dt), requires_grad=requires_grad)
    if one and m == 1:
        return Tensor(np.ones(1, dt), requires_grad=requires_grad)
    return None


def _linspace(start: float, end: float, m: int, dt: np.dtype, requires_grad: bool) -> Tensor:
    return _f("linspace")(start, end, m, dtype=dt, requires_grad=requires_grad)


def exponential(
    M: Any,  # noqa: N803 - PyTorch's name
    *,
    center: Any = None,
    tau: float = 1.0,
    sym: bool = True,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    dt = _checks("exponential", M, dtype)
    if tau <= 0:
        raise GradcliError(f"Tau must be positive, got: {tau} instead.").mirror("ValueError")
    if sym and center is not None:
        raise GradcliError("Center must be None for symmetric windows").mirror("ValueError")
    empty = _trivial(M, dt, requires_grad)
    if empty is not None:
        return empty
    if center is None:
        center = (M if not sym and M > 1 else M - 1) / 2.0
    constant = 1 / tau
    k = _linspace(-center * constant, (-center + (M - 1)) * constant, M, dt, requires_grad)
    return _f("exp")(A.neg(_f("abs")(k)))


def cosine(
    M: Any,  # noqa: N803
    *,
    sym: bool = True,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    dt = _checks("cosine", M, dtype)
    empty = _trivial(M, dt, requires_grad)
    if empty is not None:
        return empty
    start = 0.5
    constant = math.pi / (M + 1 if not sym and M > 1 else M)
    k = _linspace(start * constant, (start + (M - 1)) * constant, M, dt, requires_grad)
    return _f("sin")(k)


def gaussian(
    M: Any,  # noqa: N803
    *,
    std: float = 1.0,
    sym: bool = True,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    dt = _checks("gaussian", M, dtype)
    if std <= 0:
        raise GradcliError(f"Standard deviation must be positive, got: {std} instead.").mirror(
            "ValueError"
        )
    empty = _trivial(M, dt, requires_grad)
    if empty is not None:
        return empty
    start = -(M if not sym and M > 1 else M - 1) / 2.0
    constant = 1 / (std * math.sqrt(2))
    k = _linspace(start * constant, (start + (M - 1)) * constant, M, dt, requires_grad)
    return _f("exp")(A.neg(_f("pow")(k, 2)))


def kaiser(
    M: Any,  # noqa: N803
    *,
    beta: float = 12.0,
    sym: bool = True,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    dt = _checks("kaiser", M, dtype)
    if beta < 0:
        raise GradcliError(f"beta must be non-negative, got: {beta} instead.").mirror("ValueError")
    empty = _trivial(M, dt, requires_grad, one=True)
    if empty is not None:
        return empty
    b = Tensor(np.asarray(beta, dt))  # torch.tensor(beta, dtype=dtype)
    start = A.neg(b)
    constant = A.div_op(A.mul_op(b, 2.0), M if not sym else M - 1)
    end = _f("minimum")(b, A.add_op(start, A.mul_op(constant, M - 1)))
    k = _linspace(start.item(), end.item(), M, dt, requires_grad)
    inner = A.sub_op(A.mul_op(b, b), _f("pow")(k, 2))
    return A.div_op(_f("i0")(_f("sqrt")(inner)), _f("i0")(b))


def general_cosine(
    M: Any,  # noqa: N803
    *,
    a: Any,
    sym: bool = True,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    dt = _checks("general_cosine", M, dtype)
    empty = _trivial(M, dt, requires_grad, one=True)
    if empty is not None:
        return empty
    if not isinstance(a, (list, tuple)):
        raise GradcliError("Coefficients must be a list/tuple").mirror("TypeError")
    if not a:
        raise GradcliError("Coefficients cannot be empty").mirror("ValueError")
    constant = 2 * math.pi / (M if not sym else M - 1)
    k = _linspace(0, (M - 1) * constant, M, dt, requires_grad)
    a_i = _f("tensor")(
        [(-1) ** i * w for i, w in enumerate(a)], dtype=dt, requires_grad=requires_grad
    )
    i = _f("arange")(a_i.shape[0], dtype=dt, requires_grad=requires_grad)
    terms = A.mul_op(
        _f("unsqueeze")(a_i, -1),
        _f("cos")(A.mul_op(_f("unsqueeze")(i, -1), k)),
    )
    return _f("sum")(terms, 0)


def general_hamming(
    M: Any,  # noqa: N803
    *,
    alpha: float = 0.54,
    sym: bool = True,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    return general_cosine(
        M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, requires_grad=requires_grad
    )


def hamming(
    M: Any,  # noqa: N803
    *,
    sym: bool = True,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    return general_hamming(M, sym=sym, dtype=dtype, requires_grad=requires_grad)


def hann(
    M: Any,  # noqa: N803
    *,
    sym: bool = True,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, requires_grad=requires_grad)


def blackman(
    M: Any,  # noqa: N803
    *,
    sym: bool = True,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    _checks("blackman", M, dtype)
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, requires_grad=requires_grad)


def bartlett(
    M: Any,  # noqa: N803
    *,
    sym: bool = True,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    dt = _checks("bartlett", M, dtype)
    empty = _trivial(M, dt, requires_grad, one=True)
    if empty is not None:
        return empty
    start = -1
    constant = 2 / (M if not sym else M - 1)
    k = _linspace(start, start + (M - 1) * constant, M, dt, requires_grad)
    return A.sub_op(1, _f("abs")(k))


def nuttall(
    M: Any,  # noqa: N803
    *,
    sym: bool = True,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    return general_cosine(
        M,
        a=[0.3635819, 0.4891775, 0.1365995, 0.0106411],
        sym=sym,
        dtype=dtype,
        requires_grad=requires_grad,
    )


WINDOWS = {
    f.__name__: f
    for f in (
        bartlett,
        blackman,
        cosine,
        exponential,
        gaussian,
        general_cosine,
        general_hamming,
        hamming,
        hann,
        kaiser,
        nuttall,
    )
}
