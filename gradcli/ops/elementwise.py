"""The operation registry: one record per operation, read like a table.

Each `defop` holds an operation's NumPy forward, its vector-Jacobian product, its PyTorch
`grad_fn` name, the derivative as a formula, its sympy form (elementwise ops) and its
convention at kinks. Inside rules: `g` is the upstream gradient (it may carry `nb` leading batch
axes, `nb = g.ndim - out.ndim`), `out` the op's result, `x`, `y` its inputs. Rules use the
engine's own differentiable operations, so gradients can be differentiated again, and return
gradients in the broadcast shape: the engine's one `unbroadcast` reduces them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.autograd import Op, Sample, Tensor, apply

REGISTRY: dict[str, Op] = {}


def defop(name: str, forward: Any, vjp: Any, torch_name: str, formula: str, **kw: Any) -> Op:
    op = Op(name=name, forward=forward, vjp=vjp, torch_name=torch_name, formula=formula, **kw)
    REGISTRY[name] = op
    return op


def _const(a: Any) -> Tensor:
    """A constant (no graph) Tensor, e.g. a 0/1 mask from comparing values."""
    return Tensor(a.data if isinstance(a, Tensor) else a)


def _mask(cond: np.ndarray, like: Tensor) -> Tensor:
    return Tensor(cond.astype(like.dtype))


# Test samples (`Op.samples`, see `Sample`): the usual shapes of elementwise ops.
_SHAPES1 = ((), (4,), (2, 3), (2, 1, 3))
_SHAPES2 = (
    ((2, 3), (2, 3)),
    ((2, 3), (3,)),
    ((4, 1), (1, 5)),
    ((), (2, 3)),
    ((2, 3), ()),
    ((), ()),
    ((3, 1, 2), (4, 1)),
)


def _unary(params: dict | None = None, **kw: Any) -> tuple[Sample, ...]:
    return tuple(Sample((s,), dict(params or {}), **kw) for s in _SHAPES1)


def _binary(params: dict | None = None, **kw: Any) -> tuple[Sample, ...]:
    return tuple(Sample(s, dict(params or {}), **kw) for s in _SHAPES2)


def _reductions(params: dict | None = None, **kw: Any) -> tuple[Sample, ...]:
    """dim None / int / tuple, keepdim both ways, a scalar and a vector."""
    p = dict(params or {})
    return tuple(
        Sample(s, {**p, **q}, **kw)
        for s, q in (
            (((2, 3),), {}),
            (((2, 3),), {"dim": 1}),
            (((2, 3),), {"dim": 0, "keepdim": True}),
            (((2, 3, 4),), {"dim": (0, 2)}),
            (((2, 3),), {"dim": None, "keepdim": True}),
            (((),), {}),
            (((),), {"dim": 0}),
            (((4,),), {"dim": 0}),
        )
    )


# --- elementwise, one input ------------------------------------------------------------------

neg = defop(
    "neg",
    np.negative,
    lambda g, out, x: (-g,),
    "NegBackward0",
    "-g",
    sym=lambda sp, x: -x,
    saves=False,
    samples=_unary(),
)
exp = defop(
    "exp",
    np.exp,
    lambda g, out, x: (g * out,),
    "ExpBackward0",
    "g * out",
    sym=lambda sp, x: sp.exp(x),
    samples=_unary(),
)
log = defop(
    "log",
    np.log,
    lambda g, out, x: (g / x,),
    "LogBackward0",
    "g / x",
    sym=lambda sp, x: sp.log(x),
    domain=lambda x: "log of a value <= 0" if np.any(x <= 0) else None,
    samples=_unary(low=0.1, high=3.0),
)
log1p = defop(
    "log1p",
    np.log1p,
    lambda g, out, x: (g / (x + 1),),
    "Log1PBackward0",
    "g / (1 + x)",
    sym=lambda sp, x: sp.log(1 + x),
    domain=lambda x: "log1p of a value <= -1" if np.any(x <= -1) else None,
    samples=_unary(low=-0.9, high=3.0),
)
sqrt = defop(
    "sqrt",
    np.sqrt,
    lambda g, out, x: (g / (out * 2),),
    "SqrtBackward0",
    "g / (2 * out)",
    sym=lambda sp, x: sp.sqrt(x),
    domain=lambda x: (
        "sqrt of a value <= 0 (its derivative is infinite or nan)" if np.any(x <= 0) else None
    ),
    samples=_unary(low=0.1, high=3.0),
)
abs_ = defop(
    "abs",
    np.abs,
    lambda g, out, x: (g * _const(np.sign(x.data)),),
    "AbsBackward0",
    "g * sign(x)",
    sym=lambda sp, x: sp.Abs(x),
    kink="abs'(0) = 0, as PyTorch (sign(0) = 0)",
    samples=_unary(avoid=(0.0,)),
)
sin = defop(
    "sin",
    np.sin,
    lambda g, out, x: (g * x.cos(),),
    "SinBackward0",
    "g * cos(x)",
    sym=lambda sp, x: sp.sin(x),
    samples=_unary(),
)
cos = defop(
    "cos",
    np.cos,
    lambda g, out, x: (-g * x.sin(),),
    "CosBackward0",
    "-g * sin(x)",
    sym=lambda sp, x: sp.cos(x),
    samples=_unary(),
)
tan = defop(
    "tan",
    np.tan,
    lambda g, out, x: (g * (out * out + 1),),
    "TanBackward0",
    "g * (1 + out^2)",
    sym=lambda sp, x: sp.tan(x),
    samples=_unary(low=-1.2, high=1.2),
)
tanh = defop(
    "tanh",
    np.tanh,
    lambda g, out, x: (g * (1 - out * out),),
    "TanhBackward0",
    "g * (1 - out^2)",
    sym=lambda sp, x: sp.tanh(x),
    samples=_unary(),
)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    # Two branches so that neither exp overflows.
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


sigmoid = defop(
    "sigmoid",
    _sigmoid,
    lambda g, out, x: (g * out * (1 - out),),
    "SigmoidBackward0",
    "g * out * (1 - out)",
    sym=lambda sp, x: 1 / (1 + sp.exp(-x)),
    samples=_unary(low=-5.0, high=5.0),
)
relu = defop(
    "relu",
    lambda x: np.maximum(x, 0).astype(x.dtype),
    lambda g, out, x: (g * _mask(x.data > 0, x),),
    "ReluBackward0",
    "g * (x > 0)",
    sym=lambda sp, x: sp.Max(x, 0),
    kink="relu'(0) = 0, as PyTorch",
    samples=_unary(avoid=(0.0,)),
)
sign = defop(
    "sign",
    np.sign,
    lambda g, out, x: (g * 0,),
    "SignBackward0",
    "0",
    sym=lambda sp, x: sp.sign(x),
    saves=False,
    kink="sign' = 0 everywhere, 0 at 0",
    samples=_unary(avoid=(0.0,)),
)


def _erf(x: np.ndarray) -> np.ndarray:
    # NumPy has no erf; math.erf is exact to double precision.
    return np.vectorize(math.erf, otypes=[x.dtype])(x) if x.size else x.copy()


_2_SQRTPI = 2 / math.sqrt(math.pi)
erf = defop(
    "erf",
    _erf,
    lambda g, out, x: (g * (-(x * x)).exp() * _2_SQRTPI,),
    "ErfBackward0",
    "g * 2/sqrt(pi) * exp(-x^2)",
    sym=lambda sp, x: sp.erf(x),
    samples=_unary(),
)


def _leaky_fwd(x: np.ndarray, negative_slope: float = 0.01) -> np.ndarray:
    return np.where(x > 0, x, x * negative_slope).astype(x.dtype)


leaky_relu = defop(
    "leaky_relu",
    _leaky_fwd,
    lambda g, out, x, negative_slope=0.01: (
        g * _const(np.where(x.data > 0, 1.0, negative_slope).astype(x.dtype)),
    ),
    "LeakyReluBackward0",
    "g * (1 if x > 0 else negative_slope)",
    sym=lambda sp, x, negative_slope=0.01: sp.Piecewise((x, x > 0), (negative_slope * x, True)),
    kink="leaky_relu'(0) = negative_slope, as PyTorch",
    signature="leaky_relu(x, negative_slope=0.01)",
    samples=_unary({"negative_slope": 0.01}, avoid=(0.0,))
    + (
        Sample(((2, 3),), {"negative_slope": 0.2}, avoid=(0.0,)),
        Sample(((4,),), {"negative_slope": -1.5}, avoid=(0.0,)),
    ),
)


def _softplus_fwd(x: np.ndarray, beta: float = 1.0, threshold: float = 20.0) -> np.ndarray:
    bx = x * beta
    soft = (np.maximum(bx, 0) + np.log1p(np.exp(-np.abs(bx)))) / beta
    return np.where(bx > threshold, x, soft).astype(x.dtype)


def _softplus_vjp(
    g: Tensor, out: Tensor, x: Tensor, beta: float = 1.0, threshold: float = 20.0
) -> tuple:
    lin = _mask(x.data * beta > threshold, x)
    return (g * (lin + (1 - lin) * (x * beta).sigmoid()),)


softplus = defop(
    "softplus",
    _softplus_fwd,
    _softplus_vjp,
    "SoftplusBackward0",
    "g * sigmoid(beta * x)  (g where beta * x > threshold)",
    sym=lambda sp, x, beta=1.0, threshold=20.0: sp.Piecewise(
        (x, beta * x > threshold), (sp.log(1 + sp.exp(beta * x)) / beta, True)
    ),
    signature="softplus(x, beta=1, threshold=20)",
    samples=_unary({"beta": 1.0, "threshold": 20.0}, low=-4.0, high=4.0)
    + (
        Sample(((2, 3),), {"beta": 2.0, "threshold": 20.0}),
        Sample(((3, 4),), {"beta": 2.0, "threshold": 1.0}, avoid=(0.5,)),
        Sample(((2, 3),), {"beta": 0.5, "threshold": 0.5}, avoid=(1.0,)),
    ),
)

_SQRT1_2 = 1 / math.sqrt(2)
_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)
_GELU_K = math.sqrt(2 / math.pi)
_GELU_C = 0.044715


def _gelu_fwd(x: np.ndarray, approximate: str = "none") -> np.ndarray:
    if approximate == "tanh":
        return 0.5 * x * (1 + np.tanh(_GELU_K * (x + _GELU_C * x**3)))
    return 0.5 * x * (1 + _erf(x * _SQRT1_2))


def _gelu_vjp(g: Tensor, out: Tensor, x: Tensor, approximate: str = "none") -> tuple:
    if approximate == "tanh":
        t = ((x + x * x * x * _GELU_C) * _GELU_K).tanh()
        return (
            g * ((t + 1) * 0.5 + x * (1 - t * t) * (x * x * (3 * _GELU_C) + 1) * (0.5 * _GELU_K)),
        )
    cdf = ((x * _SQRT1_2).erf() + 1) * 0.5
    pdf = (x * x * -0.5).exp() * _INV_SQRT_2PI
    return (g * (cdf + x * pdf),)


gelu = defop(
    "gelu",
    _gelu_fwd,
    _gelu_vjp,
    "GeluBackward0",
    "g * (Phi(x) + x * phi(x))",
    sym=lambda sp, x, approximate="none": (
        x * (1 + sp.erf(x / sp.sqrt(2))) / 2
        if approximate == "none"
        else x * (1 + sp.tanh(sp.sqrt(2 / sp.pi) * (x + sp.Rational(44715, 1000000) * x**3))) / 2
    ),
    signature="gelu(x, approximate='none')",
    samples=_unary({"approximate": "none"}, low=-3.0, high=3.0)
    + _unary({"approximate": "tanh"}, low=-3.0, high=3.0),
)


def _clamp_fwd(x: np.ndarray, min: float | None = None, max: float | None = None) -> np.ndarray:
    out = x
    if min is not None:
        out = np.maximum(out, min)
    if max is not None:
        out = np.minimum(out, max)
    return np.asarray(out, dtype=x.dtype)


def _clamp_vjp(
    g: Tensor, out: Tensor, x: Tensor, min: float | None = None, max: float | None = None
) -> tuple:
    keep = np.ones(x.shape, dtype=bool)
    if min is not None:
        keep &= x.data >= min
    if max is not None:
        keep &= x.data <= max
    return (g * _mask(keep, x),)


clamp = defop(
    "clamp",
    _clamp_fwd,
    _clamp_vjp,
    "ClampBackward1",
    "g * (min <= x <= max)",
    sym=lambda sp, x, min=None, max=None: (
        sp.Min(sp.Max(x, min), max)
        if min is not None and max is not None
        else sp.Max(x, min)
        if min is not None
        else sp.Min(x, max)
        if max is not None
        else x
    ),
    kink="clamp passes the gradient at the bounds (min <= x <= max), as PyTorch",
    signature="clamp(x, min=None, max=None)",
    samples=_unary({"min": -0.5, "max": 0.5}, avoid=(-0.5, 0.5))
    + (
        Sample(((2, 3),), {"min": 0.25, "max": None}, avoid=(0.25,)),
        Sample(((2, 3),), {"min": None, "max": -0.25}, avoid=(-0.25,)),
        Sample(((4,),), {"min": 1.0, "max": 1.0}, avoid=(1.0,)),
    ),
)


def _pow_vjp(g: Tensor, out: Tensor, x: Tensor, p: float) -> tuple:
    if p == 0:
        return (g * 0,)
    return (g * p * x ** (p - 1),)


pow_scalar = defop(
    "pow_scalar",
    lambda x, p: np.power(x, p),
    _pow_vjp,
    "PowBackward0",
    "g * p * x^(p-1)",
    sym=lambda sp, x, p: x**p,
    signature="x ** p, pow(x, p)",
    samples=_unary({"p": 2})
    + _unary({"p": 3})
    + _unary({"p": 0.5}, low=0.1)
    + (
        Sample(((2, 3),), {"p": -1.5}, low=0.2),
        Sample(((2, 3),), {"p": 0}),
        Sample(((2, 3),), {"p": 1}),
        Sample(((2, 3),), {"p": -2}, avoid=(0.0,), gap=0.3),
        Sample(((2, 3),), {"p": 2.5}, low=0.1),
    ),
)


def _rpow_vjp(g: Tensor, out: Tensor, x: Tensor, base: float) -> tuple:
    if base == 0:
        # out * log(0) is nan / -inf; PyTorch takes 0 where x >= 0 (and -inf where x < 0).
        return (g * _const(np.where(x.data >= 0, 0.0, -np.inf).astype(x.dtype)),)
    return (g * out * math.log(base) if base > 0 else g * out * float("nan"),)


rpow_scalar = defop(
    "rpow_scalar",
    lambda x, base: np.power(base, x),
    _rpow_vjp,
    "PowBackward2",
    "g * out * log(c)",
    sym=lambda sp, x, base: sp.sympify(base) ** x,
    signature="c ** x, pow(c, x)",
    samples=_unary({"base": 2.0})
    + (
        Sample(((2, 3),), {"base": 0.5}),
        Sample(((2, 3),), {"base": math.e}),
        Sample(((2, 3),), {"base": 1.0}),
        Sample(((2, 3),), {"base": 0.0}, low=0.1),
    ),
)

# --- elementwise, two inputs (broadcasting) --------------------------------------------------

add = defop(
    "add",
    np.add,
    lambda g, out, x, y: (g, g),
    "AddBackward0",
    "g, g",
    sym=lambda sp, x, y: x + y,
    saves=False,
    kind="binary",
    samples=_binary(),
)
sub = defop(
    "sub",
    np.subtract,
    lambda g, out, x, y: (g, -g),
    "SubBackward0",
    "g, -g",
    sym=lambda sp, x, y: x - y,
    saves=False,
    kind="binary",
    samples=_binary(),
)
mul = defop(
    "mul",
    np.multiply,
    lambda g, out, x, y: (g * y, g * x),
    "MulBackward0",
    "g * y, g * x",
    sym=lambda sp, x, y: x * y,
    kind="binary",
    samples=_binary(),
)
div = defop(
    "div",
    np.divide,
    lambda g, out, x, y: (g / y, -g * out / y),
    "DivBackward0",
    "g / y, -g * x / y^2",
    sym=lambda sp, x, y: x / y,
    kind="binary",
    samples=_binary(avoid=(0.0,), gap=0.3),
)


def _pow_tt_vjp(g: Tensor, out: Tensor, x: Tensor, y: Tensor) -> tuple:
    # d/dy x^y = x^y log x; PyTorch takes it as 0 where x == 0 and y >= 0.
    zero = (x.data == 0) & (y.data >= 0)
    logx = Tensor(np.where(zero, 1.0, x.data).astype(x.dtype)) if np.any(zero) else x
    gy = g * out * logx.log()
    if np.any(zero):
        gy = gy * _mask(~np.broadcast_to(zero, out.shape), out)
    # d/dx is 0 where y == 0, as PyTorch (not 0 * 0^-1 = nan at x == 0): shift the exponent.
    yz = y.data == 0
    e = y - 1 + _mask(yz, y) if np.any(yz) else y - 1
    return (g * y * x**e, gy)


pow_ = defop(
    "pow",
    np.power,
    _pow_tt_vjp,
    "PowBackward1",
    "g * y * x^(y-1), g * out * log(x)",
    sym=lambda sp, x, y: x**y,
    kind="binary",
    samples=_binary(low=0.2, high=2.0),
)


def _tie_vjp(g: Tensor, out: Tensor, x: Tensor, y: Tensor) -> tuple:
    wins = np.where(x.data == y.data, 0.5, (out.data == x.data) * 1.0)
    wx = _const(np.asarray(wins, dtype=out.dtype))
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
    samples=_binary(distinct=True),
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
    samples=_binary(distinct=True),
)


def _where_vjp(g: Tensor, out: Tensor, c: Tensor, x: Tensor, y: Tensor) -> tuple:
    m = _mask(np.broadcast_to(c.data.astype(bool), out.shape), out)
    return (None, g * m, g * (1 - m))


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

# --- linear algebra --------------------------------------------------------------------------


def _matmul_vjp(g: Tensor, out: Tensor, x: Tensor, y: Tensor) -> tuple:
    # Only the gradients that are wanted (an outer product for a constant weight matrix can be
    # far larger than everything else), and one matrix product, not a stack of vector ones,
    # where an operand is a matrix.
    nx, ny = x.requires_grad, y.requires_grad
    if x.ndim == 1 and y.ndim == 1:
        gu = g.unsqueeze(-1)
        return (gu * y if nx else None, gu * x if ny else None)
    if x.ndim == 1:
        gx = None if not nx else g @ y.mT if y.ndim == 2 else (g.unsqueeze(-2) @ y.mT).squeeze(-2)
        gy = x.unsqueeze(-1) * g.unsqueeze(-2) if ny else None
        return (gx, gy)
    if y.ndim == 1:
        gx = g.unsqueeze(-1) * y if nx else None
        gy = None if not ny else g @ x if x.ndim == 2 else (g.unsqueeze(-2) @ x).squeeze(-2)
        return (gx, gy)
    return (g @ y.mT if nx else None, x.mT @ g if ny else None)


def _matmul_jvp(dots: tuple, out: Tensor, x: Tensor, y: Tensor) -> Tensor:
    """dx @ y + x @ dy, the tangents `dx`, `dy` (either may be None) with leading batch axes."""
    dx, dy = dots
    nb = dx.ndim - x.ndim if dx is not None else dy.ndim - y.ndim
    total = None
    if dx is not None:
        lead = dx.shape[:nb]
        if x.ndim == 1 and y.ndim > 2:
            total = (dx.reshape(lead + (1,) * (y.ndim - 1) + x.shape) @ y).squeeze(-2)
        elif x.ndim == 1 or y.ndim == 1:
            total = dx @ y
        else:
            total = dx.reshape(lead + (1,) * (out.ndim - x.ndim) + x.shape) @ y
    if dy is not None:
        lead = dy.shape[:nb]
        if y.ndim == 1 and x.ndim == 1:
            t = dy @ x
        elif y.ndim == 1 and x.ndim == 2:
            t = dy @ x.mT
        elif y.ndim == 1:
            t = (dy.reshape(lead + (1,) * (x.ndim - 1) + y.shape) @ x.mT).squeeze(-2)
        else:
            t = x @ dy.reshape(lead + (1,) * (out.ndim - y.ndim) + y.shape)
        total = t if total is None else total + t
    return total


def _matmul_fwd(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError("both arguments to matmul need to be at least 1D")
    return np.matmul(x, y)


matmul = defop(
    "matmul",
    _matmul_fwd,
    _matmul_vjp,
    "MmBackward0",
    "g @ y^T, x^T @ g",
    kind="linalg",
    jvp=_matmul_jvp,
    signature="x @ y, matmul(x, y), mm, mv, dot, bmm",
    samples=tuple(
        Sample(s)
        for s in (
            ((3,), (3,)),
            ((2, 3), (3,)),
            ((3,), (3, 4)),
            ((2, 3), (3, 4)),
            ((2, 2, 3), (3, 4)),
            ((2, 3), (2, 3, 4)),
            ((3,), (2, 3, 4)),
            ((2, 2, 3), (3,)),
            ((2, 1, 2, 3), (3, 3, 2)),
            ((1, 2, 3), (2, 3, 2)),
        )
    ),
)

# --- reductions -------------------------------------------------------------------------------


def _dims(dim: Any, ndim: int) -> tuple[int, ...]:
    if dim is None or ndim == 0:  # a 0-d tensor has no axis to reduce; dim=0 / -1 name it
        return tuple(range(ndim))
    ds = dim if isinstance(dim, (tuple, list)) else (dim,)
    return tuple(sorted(d % ndim for d in ds))


def _count(shape: tuple[int, ...], dims: tuple[int, ...]) -> int:
    return int(np.prod([shape[d] for d in dims])) if dims else 1


def _unreduce(t: Tensor, x: Tensor, dim: Any, keepdim: bool) -> Tensor:
    """Give a reduced tensor (with any leading batch axes) back the reduced axes as size 1,
    so that it broadcasts against `x`."""
    if keepdim or x.ndim == 0:
        return t
    dims = _dims(dim, x.ndim)
    nb = t.ndim - (x.ndim - len(dims))
    keep = tuple(1 if i in dims else s for i, s in enumerate(x.shape))
    return t.reshape(t.shape[:nb] + keep)


def _sum_fwd(x: np.ndarray, dim: Any = None, keepdim: bool = False) -> np.ndarray:
    return np.sum(x, axis=_dims(dim, x.ndim), keepdims=keepdim)


def _sum_vjp(g: Tensor, out: Tensor, x: Tensor, dim: Any = None, keepdim: bool = False) -> tuple:
    gu = _unreduce(g, x, dim, keepdim)
    nb = g.ndim - out.ndim
    return (apply(expand, gu, shape=g.shape[:nb] + x.shape),)


sum_ = defop(
    "sum",
    _sum_fwd,
    _sum_vjp,
    "SumBackward0",
    "g (broadcast back)",
    kind="reduction",
    saves=False,
    signature="sum(x, dim=None, keepdim=False)",
    samples=_reductions(),
)


def _mean_fwd(x: np.ndarray, dim: Any = None, keepdim: bool = False) -> np.ndarray:
    return np.mean(x, axis=_dims(dim, x.ndim), keepdims=keepdim)


def _mean_vjp(g: Tensor, out: Tensor, x: Tensor, dim: Any = None, keepdim: bool = False) -> tuple:
    (gs,) = _sum_vjp(g, out, x, dim, keepdim)
    return (gs / _count(x.shape, _dims(dim, x.ndim)),)


mean = defop(
    "mean",
    _mean_fwd,
    _mean_vjp,
    "MeanBackward0",
    "g / n (broadcast back)",
    kind="reduction",
    saves=False,
    signature="mean(x, dim=None, keepdim=False)",
    samples=_reductions(),
)


def _prod_others(x: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
    """For each element, the product of the others in its reduction group (exact with zeros)."""
    rest = [d for d in range(x.ndim) if d not in dims]
    moved = np.transpose(x, rest + list(dims))
    flat = moved.reshape(moved.shape[: len(rest)] + (-1,))
    ones = np.ones(flat.shape[:-1] + (1,), dtype=x.dtype)
    left = np.cumprod(np.concatenate([ones, flat[..., :-1]], axis=-1), axis=-1)
    right = np.cumprod(np.concatenate([ones, flat[..., :0:-1]], axis=-1), axis=-1)[..., ::-1]
    others = (left * right).reshape(moved.shape)
    return np.transpose(others, np.argsort(rest + list(dims)))


def _prod_vjp(g: Tensor, out: Tensor, x: Tensor, dim: Any = None, keepdim: bool = False) -> tuple:
    gu = _unreduce(g, x, dim, keepdim)
    if np.any(x.data == 0):
        # out / x is 0/0 there; the exact product of the others is used (not differentiable
        # again: a Hessian through prod at a zero is not supported).
        return (gu * _const(_prod_others(x.data, _dims(dim, x.ndim))),)
    return (gu * _unreduce(out, x, dim, keepdim) / x,)


prod = defop(
    "prod",
    lambda x, dim=None, keepdim=False: np.prod(x, axis=_dims(dim, x.ndim), keepdims=keepdim),
    _prod_vjp,
    "ProdBackward0",
    "g * out / x (product of the others)",
    kind="reduction",
    signature="prod(x, dim=None, keepdim=False)",
    samples=tuple(
        Sample(s, q)
        for s, q in (
            (((2, 3),), {}),
            (((2, 3),), {"dim": 1}),
            (((2, 3),), {"dim": 0, "keepdim": True}),
            (((2, 3, 4),), {"dim": 2}),
            (((),), {}),
            (((),), {"dim": 0}),
            (((4,),), {"dim": 0}),
        )
    ),
)


def _extreme_vjp(
    g: Tensor, out: Tensor, x: Tensor, dim: Any = None, keepdim: bool = False, fn: str = "max"
) -> tuple:
    gu = _unreduce(g, x, dim, keepdim)
    if dim is None or x.ndim == 0:
        hit = x.data == np.asarray(out.data).reshape((1,) * x.ndim)
        hit = hit / hit.sum()
    else:
        d = _dims(dim, x.ndim)[0]
        idx = np.expand_dims(getattr(np, "arg" + fn)(x.data, axis=d), d)
        hit = np.arange(x.shape[d]).reshape([-1 if i == d else 1 for i in range(x.ndim)]) == idx
    return (gu * _const(hit.astype(x.dtype)),)


def _extreme_fwd(x: np.ndarray, dim: Any = None, keepdim: bool = False, fn: str = "max"):
    if x.size == 0:
        raise ValueError(f"{fn}(): Expected reduction dim to be specified for input.numel() == 0")
    f = np.max if fn == "max" else np.min
    return f(
        x, axis=None if dim is None or x.ndim == 0 else _dims(dim, x.ndim)[0], keepdims=keepdim
    )


def _sym_reduce(x: np.ndarray, dim: Any, keepdim: bool, f: Any) -> np.ndarray:
    """A `sym` helper: reduce an object array of sympy expressions over `dim`, each group (a
    list of elements) to `f(group)`. Ops of kind elementwise / binary have `sym` forms on one
    element; every other kind's `sym` takes and returns whole object arrays (gradcli.symbolic)."""
    dims = _dims(dim, x.ndim)
    rest = [d for d in range(x.ndim) if d not in dims]
    moved = np.transpose(x, rest + list(dims))
    flat = moved.reshape(moved.shape[: len(rest)] + (-1,))
    out = np.empty(flat.shape[:-1], dtype=object)
    for i in np.ndindex(out.shape):
        out[i] = f(list(flat[i]))
    if keepdim:
        out = out.reshape(tuple(1 if d in dims else s for d, s in enumerate(x.shape)))
    return out


def _extreme_sym(
    sp: Any, x: np.ndarray, dim: Any = None, keepdim: bool = False, fn: str = "max"
) -> np.ndarray:
    dims = None if dim is None or x.ndim == 0 else _dims(dim, x.ndim)[0]
    return _sym_reduce(x, dims, keepdim, lambda v: (sp.Max if fn == "max" else sp.Min)(*v))


def _extreme_samples(fn: str) -> tuple[Sample, ...]:
    return tuple(
        Sample(s, {**q, "fn": fn}, distinct=True)
        for s, q in (
            (((2, 3),), {}),
            (((2, 3),), {"dim": 1}),
            (((2, 3),), {"dim": 0, "keepdim": True}),
            (((2, 3, 4),), {"dim": 2}),
            (((),), {}),
            (((),), {"dim": 0}),
            (((4,),), {"dim": 0}),
        )
    )


amax = defop(
    "max",
    _extreme_fwd,
    _extreme_vjp,
    "MaxBackward1",
    "g at the maximum; ties share g equally (no dim) or go to the first (with dim)",
    kind="reduction",
    kink="max() without dim splits g equally between tied maxima; max(dim) gives it "
    "to the index it returns (the first), as PyTorch",
    signature="max(x) / max(x, dim, keepdim=False) -> (values, indices) / max(x, y)",
    sym=_extreme_sym,
    samples=_extreme_samples("max"),
)
amin = defop(
    "min",
    _extreme_fwd,
    _extreme_vjp,
    "MinBackward1",
    "g at the minimum; ties share g equally (no dim) or go to the first (with dim)",
    kind="reduction",
    kink="as max",
    signature="min(x) / min(x, dim, keepdim=False) -> (values, indices) / min(x, y)",
    sym=_extreme_sym,
    samples=_extreme_samples("min"),
)


def _norm_fwd(x: np.ndarray, p: float = 2.0, dim: Any = None, keepdim: bool = False):
    ax = _dims(dim, x.ndim)
    a = np.abs(x)
    if p == math.inf:
        return np.max(a, axis=ax, keepdims=keepdim)
    if p == 2:
        return np.sqrt(np.sum(a * a, axis=ax, keepdims=keepdim))
    if p == 1:
        return np.sum(a, axis=ax, keepdims=keepdim)
    return np.sum(a**p, axis=ax, keepdims=keepdim) ** (1.0 / p)


def _norm_vjp(
    g: Tensor, out: Tensor, x: Tensor, p: float = 2.0, dim: Any = None, keepdim: bool = False
) -> tuple:
    gu = _unreduce(g, x, dim, keepdim)
    o = _unreduce(out, x, dim, keepdim)
    sgn = _const(np.sign(x.data))
    if p == 1:
        return (gu * sgn,)
    if p == math.inf:
        hit = (np.abs(x.data) == o.data).astype(x.dtype)
        hit = hit / np.sum(hit, axis=_dims(dim, x.ndim), keepdims=True)
        return (gu * sgn * _const(hit),)
    # At a zero norm PyTorch returns a zero gradient (the subgradient 0).
    zero = _mask(o.data == 0, o)
    safe = o + zero
    if p == 2:
        return (gu * x / safe * (1 - zero),)
    return (gu * sgn * x.abs() ** (p - 1) / safe ** (p - 1) * (1 - zero),)


def _norm_sym(
    sp: Any, x: np.ndarray, p: float = 2.0, dim: Any = None, keepdim: bool = False
) -> np.ndarray:
    if p == math.inf:
        return _sym_reduce(x, dim, keepdim, lambda v: sp.Max(*[sp.Abs(e) for e in v]))
    if p == 2:
        return _sym_reduce(x, dim, keepdim, lambda v: sp.sqrt(sp.Add(*[e**2 for e in v])))
    if p == 1:
        return _sym_reduce(x, dim, keepdim, lambda v: sp.Add(*[sp.Abs(e) for e in v]))
    q = sp.nsimplify(p, rational=True)
    return _sym_reduce(x, dim, keepdim, lambda v: sp.Add(*[sp.Abs(e) ** q for e in v]) ** (1 / q))


norm = defop(
    "norm",
    _norm_fwd,
    _norm_vjp,
    "NormBackward1",
    "g * x / out  (p = 2)",
    kind="reduction",
    kink="the gradient of a zero norm is 0, as PyTorch",
    sym=_norm_sym,
    signature="norm(x, p=2, dim=None, keepdim=False)",
    samples=_reductions({"p": 2.0})
    + _reductions({"p": 3.0}, avoid=(0.0,))
    + _reductions({"p": 1.0}, avoid=(0.0,))
    + _reductions({"p": 1.5}, avoid=(0.0,))
    + _reductions({"p": math.inf}, distinct=True, avoid=(0.0,), gap=0.02),
)


def _lse_fwd(x: np.ndarray, dim: Any = None, keepdim: bool = False) -> np.ndarray:
    ax = _dims(dim, x.ndim)
    m = np.max(x, axis=ax, keepdims=True) if x.size else np.zeros((1,) * x.ndim)
    m = np.where(np.isfinite(m), m, 0)
    s = np.log(np.sum(np.exp(x - m), axis=ax, keepdims=True)) + m
    return s if keepdim else np.squeeze(s, axis=ax)


logsumexp = defop(
    "logsumexp",
    _lse_fwd,
    lambda g, out, x, dim=None, keepdim=False: (
        _unreduce(g, x, dim, keepdim) * (x - _unreduce(out, x, dim, keepdim)).exp(),
    ),
    "LogsumexpBackward0",
    "g * exp(x - out)",
    kind="reduction",
    sym=lambda sp, x, dim=None, keepdim=False: _sym_reduce(
        x, dim, keepdim, lambda v: sp.log(sp.Add(*[sp.exp(e) for e in v]))
    ),
    signature="logsumexp(x, dim, keepdim=False)",
    samples=_reductions(),
)


def _softmax_fwd(x: np.ndarray, dim: int) -> np.ndarray:
    e = np.exp(x - np.max(x, axis=dim, keepdims=True))
    return e / np.sum(e, axis=dim, keepdims=True)


def _neg(dim: int, ndim: int) -> int:
    """A dim counted from the end, so that it still names the same axis under batch axes."""
    return dim % ndim - ndim if ndim else -1


_softmax_samples = tuple(
    Sample((s,), {"dim": d}, low=-3.0, high=3.0)
    for s, d in (((2, 3), 1), ((2, 3), 0), ((2, 3, 4), 2), ((2, 3, 4), 1), ((4,), 0), ((), 0))
)

softmax = defop(
    "softmax",
    _softmax_fwd,
    lambda g, out, x, dim: (
        (g * 0,)
        if x.ndim == 0
        else (out * (g - (g * out).sum(dim=_neg(dim, x.ndim), keepdim=True)),)
    ),
    "SoftmaxBackward0",
    "out * (g - sum(g * out, dim))",
    kind="reduction",
    sym=lambda sp, x, dim: np.frompyfunc(lambda e, s: sp.exp(e) / s, 2, 1)(
        x, _sym_reduce(x, dim, True, lambda v: sp.Add(*[sp.exp(e) for e in v]))
    ),
    signature="softmax(x, dim)",
    samples=_softmax_samples,
)


def _log_softmax_fwd(x: np.ndarray, dim: int) -> np.ndarray:
    return x - _lse_fwd(x, dim, keepdim=True)


log_softmax = defop(
    "log_softmax",
    _log_softmax_fwd,
    lambda g, out, x, dim: (
        (g * 0,) if x.ndim == 0 else (g - out.exp() * g.sum(dim=_neg(dim, x.ndim), keepdim=True),)
    ),
    "LogSoftmaxBackward0",
    "g - exp(out) * sum(g, dim)",
    kind="reduction",
    sym=lambda sp, x, dim: (
        x - _sym_reduce(x, dim, True, lambda v: sp.log(sp.Add(*[sp.exp(e) for e in v])))
    ),
    signature="log_softmax(x, dim)",
    samples=_softmax_samples,
)


def _var_fwd(x: np.ndarray, dim: Any = None, correction: float = 1, keepdim: bool = False):
    return np.var(x, axis=_dims(dim, x.ndim), ddof=correction, keepdims=keepdim)


def _var_vjp(
    g: Tensor, out: Tensor, x: Tensor, dim: Any = None, correction: float = 1, keepdim: bool = False
) -> tuple:
    dims = _dims(dim, x.ndim)
    centered = x - x.mean(dim=dims, keepdim=True)
    return (_unreduce(g, x, dim, keepdim) * centered * (2 / (_count(x.shape, dims) - correction)),)


_var_samples = tuple(
    Sample(s, q)
    for s, q in (
        (((2, 3),), {"correction": 1}),
        (((2, 3),), {"correction": 0}),
        (((2, 3),), {"dim": 1, "correction": 1}),
        (((2, 3),), {"dim": 0, "correction": 0, "keepdim": True}),
        (((2, 3, 4),), {"dim": (0, 2), "correction": 1}),
        (((4,),), {"dim": 0, "correction": 1}),
        (((2, 3),), {"dim": None, "correction": 1, "keepdim": True}),
        (((3, 4),), {"dim": 1, "correction": 2}),
    )
)


def _var_sym(
    sp: Any, x: np.ndarray, dim: Any = None, correction: float = 1, keepdim: bool = False
) -> np.ndarray:
    n = _count(x.shape, _dims(dim, x.ndim)) - sp.nsimplify(correction, rational=True)

    def f(v: list) -> Any:
        m = sp.Add(*v) / len(v)
        return sp.Add(*[(e - m) ** 2 for e in v]) / n

    return _sym_reduce(x, dim, keepdim, f)


var = defop(
    "var",
    _var_fwd,
    _var_vjp,
    "VarBackward0",
    "g * 2 (x - mean) / (n - correction)",
    kind="reduction",
    signature="var(x, dim=None, correction=1, keepdim=False)",
    sym=_var_sym,
    samples=_var_samples + (Sample(((),), {"dim": None, "correction": 0}),),
)


def _std_vjp(
    g: Tensor, out: Tensor, x: Tensor, dim: Any = None, correction: float = 1, keepdim: bool = False
) -> tuple:
    dims = _dims(dim, x.ndim)
    centered = x - x.mean(dim=dims, keepdim=True)
    n = _count(x.shape, dims) - correction
    return (_unreduce(g, x, dim, keepdim) * centered / (_unreduce(out, x, dim, keepdim) * n),)


std = defop(
    "std",
    lambda x, dim=None, correction=1, keepdim=False: np.sqrt(_var_fwd(x, dim, correction, keepdim)),
    _std_vjp,
    "StdBackward0",
    "g * (x - mean) / ((n - correction) * out)",
    kind="reduction",
    sym=lambda sp, x, dim=None, correction=1, keepdim=False: np.frompyfunc(sp.sqrt, 1, 1)(
        _var_sym(sp, x, dim, correction, keepdim)
    ),
    signature="std(x, dim=None, correction=1, keepdim=False)",
    samples=_var_samples,
)

# --- shape -----------------------------------------------------------------------------------


def _reshape_vjp(g: Tensor, out: Tensor, x: Tensor, shape: tuple[int, ...]) -> tuple:
    nb = g.ndim - out.ndim
    return (g.reshape(g.shape[:nb] + x.shape),)


reshape = defop(
    "reshape",
    lambda x, shape: np.reshape(x, shape),
    _reshape_vjp,
    "ViewBackward0",
    "g reshaped to x's shape",
    kind="shape",
    saves=False,
    signature="reshape(x, shape), view, flatten, squeeze, unsqueeze",
    samples=tuple(
        Sample((a,), {"shape": b})
        for a, b in (
            ((2, 3), (3, 2)),
            ((2, 3), (6,)),
            ((), (1, 1)),
            ((2, 3, 4), (4, 6)),
            ((6,), (2, 1, 3)),
            ((1, 1), ()),
        )
    ),
)


def _perm_fwd(x: np.ndarray, perm: tuple[int, ...]) -> np.ndarray:
    lead = x.ndim - len(perm)
    return np.transpose(x, tuple(range(lead)) + tuple(lead + p for p in perm))


permute = defop(
    "permute",
    _perm_fwd,
    lambda g, out, x, perm: (apply(permute, g, perm=tuple(int(i) for i in np.argsort(perm))),),
    "PermuteBackward0",
    "g with the inverse permutation",
    kind="shape",
    saves=False,
    signature="permute(x, dims), transpose(x, d0, d1), t(x), x.T, x.mT",
    samples=tuple(
        Sample((a,), {"perm": b})
        for a, b in (
            ((2, 3), (1, 0)),
            ((2, 3, 4), (2, 0, 1)),
            ((2, 3, 4), (0, 2, 1)),
            ((4,), (0,)),
            ((), ()),
        )
    ),
)


def _expand_fwd(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    return np.broadcast_to(x, shape)


expand = defop(
    "expand",
    _expand_fwd,
    lambda g, out, x, shape: (g,),
    "ExpandBackward0",
    "g summed over the expanded axes",
    kind="shape",
    saves=False,
    signature="expand(x, *sizes), expand_as, broadcast_to",
    samples=tuple(
        Sample((a,), {"shape": b})
        for a, b in (
            ((3, 1), (2, 3, 4)),
            ((), (2, 3)),
            ((1, 3), (2, 3)),
            ((3,), (3,)),
            ((2, 1, 1), (2, 3, 2)),
        )
    ),
)


def _index_fwd(x: np.ndarray, idx: tuple, lead: int = 0) -> np.ndarray:
    if lead and _has_array(idx):
        # NumPy puts the axes of index arrays that are not adjacent in front of all others,
        # the `lead` batch axes included: index with the batch axes last, then move them back.
        r = np.moveaxis(x, range(lead), range(-lead, 0))[_no_ellipsis(idx, x.ndim - lead)]
        return np.moveaxis(r, range(r.ndim - lead, r.ndim), range(lead))
    return x[(slice(None),) * lead + idx]


def _no_ellipsis(idx: tuple, ndim: int) -> tuple:
    """`idx` with its Ellipsis replaced by the full slices it stands for on `ndim` axes."""
    k = next((k for k, i in enumerate(idx) if i is Ellipsis), None)
    if k is None:
        return idx
    used = sum(
        0
        if i is None or i is Ellipsis
        else i.ndim
        if isinstance(i, np.ndarray) and i.dtype == bool
        else 1
        for i in idx
    )
    return idx[:k] + (slice(None),) * (ndim - used) + idx[k + 1 :]


def _index_vjp(g: Tensor, out: Tensor, x: Tensor, idx: tuple, lead: int = 0) -> tuple:
    return (apply(index_put, g, idx=idx, shape=x.shape[lead:], out_ndim=out.ndim - lead),)


_INDEX_CASES = (
    ((2, 3, 4), (0,)),
    ((2, 3, 4), (slice(None), slice(1, 3))),
    ((2, 3, 4), (Ellipsis, 0)),
    ((2, 3), (None, 1)),
    ((2, 3), (1, 2)),
    ((5,), (slice(None, None, 2),)),
    ((3, 4), (np.array([0, 2, 0]),)),
    ((3, 4), (np.array([True, False, True]),)),
    ((3, 4), (np.array([[0, 1], [2, 0]]), np.array([3, 3]))),
    ((2, 3, 4), (0, slice(None), np.array([1, 2, 1]))),
    ((2, 3, 4), (np.array([0, 1]), slice(None), np.array([3, 0]))),
    ((2, 3, 4), (slice(None), np.array([2, 0]), np.array([1, 1]))),
    ((2, 3), (np.array(True),)),
    ((), (None,)),
    ((2, 3, 4), (Ellipsis, np.array([0, 2]))),
    ((2, 3, 4), (np.array([1, 0]), Ellipsis, 0)),
)

index = defop(
    "index",
    _index_fwd,
    _index_vjp,
    "IndexBackward0",
    "g scattered (added) back into zeros of x's shape",
    kind="shape",
    saves=False,
    signature="x[i], x[i, j], x[:, 1:3], x[..., 0], x[None], x[index_tensor]",
    samples=tuple(Sample((a,), {"idx": b}) for a, b in _INDEX_CASES)
    + (
        Sample(((2, 3, 4),), {"idx": (1,), "lead": 1}),
        Sample(((2, 3, 4),), {"idx": (np.array([2, 0, 2]), slice(1, 3)), "lead": 1}),
        Sample(((2, 3, 4),), {"idx": (np.array([2, 0]), Ellipsis, 1), "lead": 1}),
    ),
)


def _has_array(idx: tuple) -> bool:
    return any(isinstance(i, np.ndarray) for i in idx)


def _index_put_fwd(g: np.ndarray, idx: tuple, shape: tuple, out_ndim: int) -> np.ndarray:
    lead = g.ndim - out_ndim
    z = np.zeros(g.shape[:lead] + tuple(shape), dtype=g.dtype)
    full = (slice(None),) * lead + idx
    if _has_array(idx) and lead:
        # As in `_index_fwd`: the batch axes last (views of z and g), so none move.
        back = range(-lead, 0)
        np.add.at(
            np.moveaxis(z, range(lead), back),
            _no_ellipsis(idx, len(shape)),
            np.moveaxis(g, range(lead), back),
        )
    elif _has_array(idx):
        np.add.at(z, full, g)
    else:
        z[full] = g
    return z


index_put = defop(
    "index_put",
    _index_put_fwd,
    lambda g, out, gin, idx, shape, out_ndim: (apply(index, g, idx=idx, lead=g.ndim - len(shape)),),
    "IndexPutBackward0",
    "g indexed like the forward index",
    kind="internal",
    saves=False,
    samples=tuple(
        Sample(
            (_index_fwd(np.zeros(a), b).shape,),
            {"idx": b, "shape": a, "out_ndim": _index_fwd(np.zeros(a), b).ndim},
        )
        for a, b in _INDEX_CASES
    ),
)


def _cat_fwd(*xs: np.ndarray, dim: int = 0) -> np.ndarray:
    return np.concatenate(xs, axis=dim)


def _cat_vjp(g: Tensor, out: Tensor, *xs: Tensor, dim: int = 0) -> tuple:
    d = _neg(dim, out.ndim)
    tail = (slice(None),) * (-d - 1)
    grads, start = [], 0
    for x in xs:
        n = x.shape[dim] if x.ndim else 1
        grads.append(apply(index, g, idx=(Ellipsis, slice(start, start + n)) + tail))
        start += n
    return tuple(grads)


cat = defop(
    "cat",
    _cat_fwd,
    _cat_vjp,
    "CatBackward0",
    "g split along dim",
    kind="shape",
    saves=False,
    signature="cat(tensors, dim=0)",
    samples=tuple(
        Sample(a, {"dim": d})
        for a, d in (
            (((2, 3), (4, 3)), 0),
            (((2, 3), (2, 1), (2, 2)), 1),
            (((3,), (2,)), 0),
            (((2, 3),), 0),
            (((2, 1, 3), (2, 2, 3)), 1),
        )
    ),
)


def _stack_vjp(g: Tensor, out: Tensor, *xs: Tensor, dim: int = 0) -> tuple:
    d = _neg(dim, out.ndim)
    tail = (slice(None),) * (-d - 1)
    return tuple(apply(index, g, idx=(Ellipsis, i) + tail) for i in range(len(xs)))


stack = defop(
    "stack",
    lambda *xs, dim=0: np.stack(xs, axis=dim),
    _stack_vjp,
    "StackBackward0",
    "g unstacked along dim",
    kind="shape",
    saves=False,
    signature="stack(tensors, dim=0)",
    samples=tuple(
        Sample(a, {"dim": d})
        for a, d in (
            (((2, 3), (2, 3)), 0),
            (((2, 3), (2, 3)), 1),
            (((2, 3), (2, 3), (2, 3)), 2),
            (((), ()), 0),
            (((3,), (3,), (3,)), 1),
            (((4,),), 0),
        )
    ),
)

astype = defop(
    "astype",
    lambda x, dtype: x.astype(dtype),
    lambda g, out, x, dtype: (apply(astype, g, dtype=x.dtype),),
    "ToCopyBackward0",
    "g cast back to x's dtype",
    kind="shape",
    saves=False,
    sym=lambda sp, x, dtype: x,
    signature="x.float(), x.double(), x.to(dtype)",
    samples=(
        Sample(((2, 3),), {"dtype": np.dtype(np.float32)}),
        Sample(((),), {"dtype": np.dtype(np.float32)}),
        Sample(((2, 3),), {"dtype": np.dtype(np.float64)}),
    ),
)

# --- losses (PyTorch defaults: reduction='mean') ---------------------------------------------


def _reduce(a: np.ndarray, reduction: str) -> np.ndarray:
    if reduction == "mean":
        return np.mean(a)
    if reduction == "sum":
        return np.sum(a)
    return a


def _loss_g(g: Tensor, out: Tensor, shape: tuple, reduction: str) -> Tensor:
    """The upstream gradient of a loss, broadcastable to the elementwise losses' shape."""
    if reduction == "none":
        return g
    nb = g.ndim - out.ndim
    gu = g.reshape(g.shape[:nb] + (1,) * len(shape))
    n = int(np.prod(shape)) if shape else 1
    return gu / n if reduction == "mean" else gu


def _mse_vjp(g: Tensor, out: Tensor, x: Tensor, y: Tensor, reduction: str = "mean") -> tuple:
    shape = np.broadcast_shapes(x.shape, y.shape)
    gx = _loss_g(g, out, shape, reduction) * (x - y) * 2
    return (gx, -gx)


mse_loss = defop(
    "mse_loss",
    lambda x, y, reduction="mean": _reduce((x - y) ** 2, reduction),
    _mse_vjp,
    "MseLossBackward0",
    "g * 2 (x - y) / n, -(same)",
    kind="loss",
    signature="mse_loss(input, target, reduction='mean')",
    samples=tuple(
        Sample(a, {"reduction": r})
        for a, r in (
            (((2, 3), (2, 3)), "mean"),
            (((2, 3), (2, 3)), "sum"),
            (((2, 3), (2, 3)), "none"),
            (((2, 3), (3,)), "mean"),
            (((), ()), "mean"),
            (((4,), (4,)), "none"),
            (((3,), (2, 3)), "sum"),
        )
    ),
)


def _bce_fwd(
    p: np.ndarray, t: np.ndarray, weight: np.ndarray | None = None, reduction: str = "mean"
) -> np.ndarray:
    if np.any((p < 0) | (p > 1)):
        raise ValueError("all elements of input should be between 0 and 1")
    # PyTorch clamps the logs at -100 so that p = 0 or 1 gives a finite loss.
    lp, l1p = np.maximum(np.log(p), -100), np.maximum(np.log1p(-p), -100)
    loss = -(t * lp + (1 - t) * l1p)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def _bce_vjp(
    g: Tensor, out: Tensor, p: Tensor, t: Tensor, weight: Any = None, reduction: str = "mean"
) -> tuple:
    gu = _loss_g(g, out, p.shape, reduction)
    if weight is not None:
        gu = gu * _const(weight)
    denom = ((1 - p) * p).clamp(min=1e-12)
    lp = p.log().clamp(min=-100)
    l1p = (1 - p).log().clamp(min=-100)
    return (gu * (p - t) / denom, gu * (l1p - lp))


binary_cross_entropy = defop(
    "binary_cross_entropy",
    _bce_fwd,
    _bce_vjp,
    "BinaryCrossEntropyBackward0",
    "g * (p - t) / max(p (1 - p), 1e-12), g * (log(1 - p) - log(p))",
    kind="loss",
    # (the sympy form leaves out the clamp of the logs at -100)
    sym=lambda sp, p, t, weight=None, reduction="mean": _reduce(
        np.frompyfunc(lambda a, b: -(b * sp.log(a) + (1 - b) * sp.log(1 - a)), 2, 1)(p, t)
        * (1 if weight is None else weight),
        reduction,
    ),
    signature="binary_cross_entropy(input, target, weight=None, reduction='mean')",
    samples=tuple(
        Sample(a, q, low=0.05, high=0.95)
        for a, q in (
            (((2, 3), (2, 3)), {"reduction": "mean"}),
            (((2, 3), (2, 3)), {"reduction": "sum"}),
            (((2, 3), (2, 3)), {"reduction": "none"}),
            (((), ()), {"reduction": "mean"}),
            (((4,), (4,)), {"reduction": "none"}),
            (
                ((2, 3), (2, 3)),
                {"reduction": "mean", "weight": np.array([[0.5, 1.0, 2.0], [1.5, 0.2, 1.0]])},
            ),
            (((2, 3), (2, 3)), {"reduction": "none", "weight": np.array([[0.5, 1.0, 2.0]] * 2)}),
        )
    ),
)


def _nll_fwd(
    x: np.ndarray,
    target: np.ndarray,
    weight: np.ndarray | None = None,
    reduction: str = "mean",
    ignore_index: int = -100,
) -> np.ndarray:
    m = _nll_mask(x.shape, target, weight, ignore_index, x.dtype)
    picked = -np.sum(m * x, axis=-1)
    if reduction == "none":
        return picked
    total = np.sum(picked)
    if reduction == "sum":
        return total
    return total / np.sum(m)


def _nll_mask(shape: tuple, target: np.ndarray, weight: Any, ignore_index: int, dtype) -> Any:
    """One-hot of the targets, times the class weight, zero where target == ignore_index."""
    c = shape[-1]
    t = np.asarray(target)
    m = (np.arange(c) == t[..., None]).astype(dtype)
    if weight is not None:
        m = m * np.asarray(weight, dtype=dtype)
    return m * (t != ignore_index)[..., None]


def _nll_vjp(
    g: Tensor,
    out: Tensor,
    x: Tensor,
    target: np.ndarray,
    weight: Any = None,
    reduction: str = "mean",
    ignore_index: int = -100,
) -> tuple:
    m = _nll_mask(x.shape, target, weight, ignore_index, x.dtype)
    if reduction == "none":
        return (g.unsqueeze(-1) * _const(-m),)
    nb = g.ndim - out.ndim
    gu = g.reshape(g.shape[:nb] + (1,) * x.ndim)
    scale = -m / np.sum(m) if reduction == "mean" else -m
    return (gu * _const(scale),)


nll_loss = defop(
    "nll_loss",
    _nll_fwd,
    _nll_vjp,
    "NllLossBackward0",
    "-g * w[t] / sum(w[t]) at the target classes, 0 elsewhere",
    kind="loss",
    signature="nll_loss(input, target, weight=None, reduction='mean', ignore_index=-100)",
    samples=tuple(
        Sample(a, {"target": np.array(t), **q})
        for a, t, q in (
            (((3, 4),), [0, 2, 1], {"reduction": "mean"}),
            (((3, 4),), [0, 2, 1], {"reduction": "sum"}),
            (((3, 4),), [0, 2, 3], {"reduction": "none"}),
            (((3, 4),), [3, 3, 1], {"weight": np.array([1.0, 2.0, 0.5, 1.5])}),
            (((3, 4),), [0, 1, 2], {"weight": np.array([1.0, 2.0, 0.5, 1.5]), "reduction": "none"}),
            (((3, 4),), [0, -100, 3], {"ignore_index": -100}),
            (((3, 4),), [1, 2, 1], {"ignore_index": 1, "reduction": "sum"}),
            (((4,),), 2, {"reduction": "mean"}),
            (((4,),), 1, {"reduction": "none"}),
        )
    ),
)

# Installs the PyTorch-shaped functions and Tensor methods over these records.
from ..surface import functional as _functional  # noqa: E402,F401
