"""Elementwise records of two tensor inputs, which broadcast: add, sub, mul, div, pow,
maximum, minimum, and where (whose condition is not differentiated).

Rules return gradients in the broadcast shape: the engine's one `unbroadcast` reduces them.
"""

from __future__ import annotations

import numpy as np

from ..core import primitives as P
from ..core.op import Sample, apply, binary_samples, defop, register
from ..core.tensor import Tensor, constant, mask_like

add = register(P.add)
sub = defop(
    "sub",
    np.subtract,
    lambda g, out, x, y: (g, -g),
    "SubBackward0",
    "g, -g",
    sym=lambda sp, x, y: x - y,
    saves=False,
    kind="binary",
    samples=binary_samples(),
)
mul = defop(
    "mul",
    np.multiply,
    # Only the gradients wanted (x * 2.0 needs no gradient for the constant).
    lambda g, out, x, y: (g * y if x.requires_grad else None, g * x if y.requires_grad else None),
    "MulBackward0",
    "g * y, g * x",
    sym=lambda sp, x, y: x * y,
    kind="binary",
    samples=binary_samples(),
)
div = defop(
    "div",
    np.divide,
    lambda g, out, x, y: (
        g / y if x.requires_grad else None,
        -g * out / y if y.requires_grad else None,
    ),
    "DivBackward0",
    "g / y, -g * x / y^2",
    sym=lambda sp, x, y: x / y,
    kind="binary",
    samples=binary_samples(avoid=(0.0,), gap=0.3),
)


def _pow_tt_vjp(g: Tensor, out: Tensor, x: Tensor, y: Tensor) -> tuple:
    return (_pow_dx(g, x, y) if x.requires_grad else None, _pow_dy(g, out, x, y))


def _pow_dy(g: Tensor, out: Tensor, x: Tensor, y: Tensor) -> Tensor | None:
    # d/dy x^y = x^y log x; PyTorch takes it as 0 where x == 0 and y >= 0.
    if not y.requires_grad:
        return None
    zero = (x.data == 0) & (y.data >= 0)
    logx = Tensor(np.where(zero, 1.0, x.data).astype(x.dtype)) if np.any(zero) else x
    gy = g * out * logx.log()
    if np.any(zero):
        gy = gy * mask_like(~np.broadcast_to(zero, out.shape), out)
    return gy


def _pow_dx(g: Tensor, x: Tensor, y: Tensor) -> Tensor:
    # d/dx is 0 where y == 0, as PyTorch (not 0 * 0^-1 = nan at x == 0): shift the exponent.
    yz = y.data == 0
    e = y - 1 + mask_like(yz, y) if np.any(yz) else y - 1
    return g * y * x**e


pow = defop(  # noqa: A001 - the record of torch.pow (tensor ** tensor)
    "pow",
    np.power,
    _pow_tt_vjp,
    "PowBackward1",
    "g * y * x^(y-1), g * out * log(x)",
    sym=lambda sp, x, y: x**y,
    kind="binary",
    samples=binary_samples(low=0.2, high=2.0),
)


def _tie_vjp(g: Tensor, out: Tensor, x: Tensor, y: Tensor) -> tuple:
    wins = np.where(x.data == y.data, 0.5, (out.data == x.data) * 1.0)
    wx = constant(np.asarray(wins, dtype=out.dtype))
    return (g * wx, g * (1 - wx))


maximum = defop(
    "maximum",
    np.maximum,
    _tie_vjp,
    "MaximumBackward0",
    "g * (x > y), g * (y > x); ties split g / 2 each",
    sym=lambda sp, x, y: sp.Max(x, y),
    kind="binary",
    kink="at ties x == y each input gets g / 2, as PyTorch",
    samples=binary_samples(distinct=True),
)
minimum = defop(
    "minimum",
    np.minimum,
    _tie_vjp,
    "MinimumBackward0",
    "g * (x < y), g * (y < x); ties split g / 2 each",
    sym=lambda sp, x, y: sp.Min(x, y),
    kind="binary",
    kink="at ties x == y each input gets g / 2, as PyTorch",
    samples=binary_samples(distinct=True),
)


def _where_vjp(g: Tensor, out: Tensor, c: Tensor, x: Tensor, y: Tensor) -> tuple:
    # As PyTorch: where(c, g, 0) and where(c, 0, g), so the zeros are +0 (g * mask would give
    # -0 where g is negative, and print so).
    cond = Tensor(np.broadcast_to(c.data.astype(bool), out.shape))
    zero = Tensor(np.zeros((), dtype=g.dtype))
    return (
        None,
        apply(where, cond, g, zero) if x.requires_grad else None,
        apply(where, cond, zero, g) if y.requires_grad else None,
    )


where = defop(
    "where",
    lambda c, x, y: np.where(c.astype(bool), x, y),
    _where_vjp,
    "WhereBackward0",
    "-, g * c, g * (1 - c)",
    sym=None,
    kind="binary",
    nondiff=(0,),
    signature="where(condition, x, y)",
    samples=(
        Sample(((2, 3), (2, 3), (2, 3)), fixed={0: np.array([[1, 0, 1], [0, 0, 1]], dtype=bool)}),
        Sample(((3,), (2, 3), (2, 1)), fixed={0: np.array([True, False, True])}),
        Sample(((2, 1), (), (3,)), fixed={0: np.array([[False], [True]])}),
        Sample(((), (4,), (4,)), fixed={0: np.array(True)}),
    ),
)
