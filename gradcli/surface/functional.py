"""The PyTorch-shaped surface over the registry: functions (`torch.sum`, `F.relu`, ...), tensor
constructors, `torch.nn` module calls and the `Tensor` methods and operators.

This is where PyTorch's argument conventions are handled (`dim=` / `keepdim=`, `*sizes` or a
tuple, Python numbers on either side of an operator), checked with PyTorch's error wording, and
turned into `apply(op, ...)` calls on the records of `gradcli.ops`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError
from ..core.autograd import Tensor, apply, as_tensor
from ..ops import elementwise as O


class Settings:
    """Process-wide defaults a program runs with (set by `--dtype` / `--seed`)."""

    default_dtype: np.dtype = np.dtype(np.float64)
    seed: int = 0
    # Created on first use: importing numpy.random costs ~20 ms of start-up.
    _rng: Any = None

    @classmethod
    def rng(cls) -> Any:
        if cls._rng is None:
            cls._rng = np.random.default_rng(cls.seed)
        return cls._rng


def manual_seed(seed: int) -> None:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise GradcliError(f"manual_seed expected an int, not {_typename(seed)}")
    # As PyTorch: any int is a seed (negative ones wrap around 2**64).
    Settings.seed = int(seed) % 2**64
    Settings._rng = None


def set_default_dtype(dtype: Any) -> None:
    Settings.default_dtype = np.dtype(dtype)


# --- helpers ---------------------------------------------------------------------------------


def _tensor_arg(v: Any, what: str = "argument") -> Tensor:
    if isinstance(v, Tensor):
        return v
    if isinstance(v, (int, float, bool)) and not isinstance(v, bool):
        return Tensor(np.asarray(v, dtype=Settings.default_dtype))
    raise GradcliError(
        f"{what} must be a Tensor, not {_typename(v)}",
        hint="create it with torch.tensor(...)",
    )


def _typename(v: Any) -> str:
    if isinstance(v, Tensor):
        return "Tensor"
    return {list: "list", tuple: "tuple", str: "str", type(None): "None"}.get(
        type(v), type(v).__name__
    )


def _int(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        if isinstance(v, Tensor) and v.data.size == 1 and v.dtype.kind in "iu":
            return int(v.data.reshape(()))
        raise GradcliError(f"{what} must be an int, not {_typename(v)}")
    return int(v)


def _check_dim(dim: Any, ndim: int) -> int:
    d = _int(dim, "dim")
    n = max(ndim, 1)
    if not -n <= d < n:
        raise GradcliError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})"
        )
    return d % n


def _dims_arg(dim: Any, ndim: int) -> Any:
    if dim is None:
        return None
    if isinstance(dim, (tuple, list)):
        return tuple(_check_dim(d, ndim) for d in dim)
    return _check_dim(dim, ndim)


def _sizes(args: Sequence[Any], what: str = "size", infer: bool = False) -> tuple[int, ...]:
    """`zeros(2, 3)` and `zeros((2, 3))` / `zeros([2, 3])` alike; checks the element limit
    before anything is allocated. `infer`: a -1 is allowed (reshape, expand)."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    shape = []
    for a in args:
        n = _int(a, what)
        if n < 0 and (n != -1 or not infer):
            raise GradcliError(f"Trying to create tensor with negative dimension {n}: {list(args)}")
        shape.append(n)
    total = 1
    for n in shape:
        total *= max(n, 0)
        if total > limits.TENSOR_ELEMENTS.value:
            limits.TENSOR_ELEMENTS.check(total, f"a tensor of shape {list(shape)}")
    return tuple(shape)


def _new(shape_or_data: Any, dtype: Any, requires_grad: bool) -> Tensor:
    return Tensor(shape_or_data, requires_grad=requires_grad, dtype=dtype)


def _float_dtype(dtype: Any) -> np.dtype:
    return Settings.default_dtype if dtype is None else np.dtype(dtype)


def _size_check(shape: tuple[int, ...], what: str) -> None:
    total = 1
    for n in shape:
        total *= n
    limits.TENSOR_ELEMENTS.check(total, what)


# --- tensor constructors ---------------------------------------------------------------------


def _data_array(data: Any, dtype: Any) -> np.ndarray:
    """Nested lists of numbers (or Tensors of one element) to an array, checked."""
    if isinstance(data, Tensor):
        return data.data.astype(_float_dtype(dtype) if dtype is None else dtype, copy=True)
    count = [0]

    def walk(v: Any, depth: int) -> Any:
        if depth > 32:
            raise GradcliError("tensor data is nested too deeply", hint="at most 32 levels")
        if isinstance(v, (list, tuple)):
            return [walk(e, depth + 1) for e in v]
        if isinstance(v, Tensor):
            if v.data.size != 1:
                raise GradcliError(
                    "only one element tensors can be converted to Python scalars",
                    hint="use torch.stack or torch.cat to combine tensors (keeps gradients)",
                )
            v = v.data.reshape(()).item()
        if isinstance(v, bool) or isinstance(v, (int, float)):
            count[0] += 1
            if count[0] > limits.LIST_ITEMS.value:
                limits.LIST_ITEMS.check(count[0], "the number of numbers in the tensor data")
            return v
        raise GradcliError(
            f"Could not infer dtype of {_typename(v)}",
            expected="numbers, or nested lists of numbers",
        )

    clean = walk(data, 0)
    all_bool = count[0] > 0 and _all_bool(clean)
    try:
        if dtype is None:
            arr = np.array(clean, dtype=bool if all_bool else Settings.default_dtype)
        else:
            arr = np.array(clean, dtype=dtype)
    except (ValueError, OverflowError):
        raise GradcliError(
            "expected a rectangular nested list (every row the same length)",
            found="rows of different lengths (a ragged list)",
        ) from None
    return arr


def _all_bool(v: Any) -> bool:
    stack = [v]
    while stack:
        e = stack.pop()
        if isinstance(e, list):
            stack.extend(e)
        elif not isinstance(e, bool):
            return False
    return True


def tensor(data: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None) -> Tensor:
    return _new(_data_array(data, dtype), None, requires_grad)


def Tensor_(*args: Any, requires_grad: bool = False, dtype: Any = None) -> Tensor:  # noqa: N802
    """`torch.Tensor(data)`, or `torch.Tensor(2, 3)` (sizes: gradcli fills zeros)."""
    dt = _float_dtype(dtype)
    if args and all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        return _new(np.zeros(_sizes(args), dtype=dt), None, requires_grad)
    if len(args) != 1:
        raise GradcliError("torch.Tensor() takes the data (a nested list) or sizes")
    return _new(_data_array(args[0], dt), None, requires_grad)


def FloatTensor(*args: Any, requires_grad: bool = False) -> Tensor:  # noqa: N802
    return Tensor_(*args, requires_grad=requires_grad, dtype=np.float32)


def DoubleTensor(*args: Any, requires_grad: bool = False) -> Tensor:  # noqa: N802
    return Tensor_(*args, requires_grad=requires_grad, dtype=np.float64)


def Variable(t: Any, requires_grad: bool = False, volatile: bool = False) -> Tensor:  # noqa: N802
    """`torch.autograd.Variable`: since PyTorch 0.4 a Variable is a Tensor."""
    t = _tensor_arg(t, "Variable's data")
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
        shape = _sizes(size)
        return _new(fill(shape, _float_dtype(dtype)), None, requires_grad)

    return make


zeros = _filled(lambda s, d: np.zeros(s, dtype=d))
ones = _filled(lambda s, d: np.ones(s, dtype=d))
empty = zeros  # gradcli has no uninitialised memory: empty() is zeros
rand = _filled(lambda s, d: Settings.rng().random(s).astype(d))
randn = _filled(lambda s, d: Settings.rng().standard_normal(s).astype(d))


def full(
    size: Any, fill_value: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None
) -> Tensor:
    shape = _sizes((size,) if isinstance(size, int) else tuple(size))
    return _new(np.full(shape, float(fill_value), dtype=_float_dtype(dtype)), None, requires_grad)


def eye(
    n: int, m: int | None = None, dtype: Any = None, requires_grad: bool = False, device: Any = None
) -> Tensor:
    shape = _sizes((n, n if m is None else m))
    return _new(np.eye(shape[0], shape[1], dtype=_float_dtype(dtype)), None, requires_grad)


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
            raise GradcliError(f"arange() arguments must be numbers, not {_typename(a)}")
    s, e, st = (
        (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) == 3 else 1)
    )
    if st == 0:
        raise GradcliError("step must be nonzero")
    if not all(math.isfinite(a) for a in (s, e, st)):
        raise GradcliError("arange(): start, end and step must be finite numbers")
    n = max(0, math.ceil((e - s) / st))
    _size_check((n,), "arange's length")
    # As PyTorch: integer arguments give an int64 range (indices), any float a float one.
    ints = dtype is None and all(isinstance(a, int) for a in (s, e, st))
    dt = np.int64 if ints else _float_dtype(dtype)
    return _new(np.arange(s, e, st, dtype=dt), None, requires_grad)


def linspace(
    start: float,
    end: float,
    steps: int,
    dtype: Any = None,
    requires_grad: bool = False,
    device: Any = None,
) -> Tensor:
    n = _int(steps, "steps")
    if n < 0:
        raise GradcliError("number of steps must be non-negative")
    _size_check((n,), "linspace's length")
    return _new(
        np.linspace(float(start), float(end), n, dtype=_float_dtype(dtype)), None, requires_grad
    )


def _like(fill: Callable[..., Tensor]) -> Callable[..., Tensor]:
    def make(
        t: Any, *args: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None
    ) -> Tensor:
        t = _tensor_arg(t, "input")
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

# --- elementwise -------------------------------------------------------------------------------


def _broadcast_shape(a: Tensor, b: Tensor) -> tuple[int, ...]:
    # The common cases need no checks: each operand is already within the limits.
    if a.shape == b.shape or b.ndim == 0:
        return a.shape
    if a.ndim == 0:
        return b.shape
    try:
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        n = max(a.ndim, b.ndim)
        sa = (1,) * (n - a.ndim) + a.shape
        sb = (1,) * (n - b.ndim) + b.shape
        for i in range(n - 1, -1, -1):
            if sa[i] != sb[i] and sa[i] != 1 and sb[i] != 1:
                raise GradcliError(
                    f"The size of tensor a ({sa[i]}) must match the size of tensor b ({sb[i]}) "
                    f"at non-singleton dimension {i}",
                    found=f"shapes {list(a.shape)} and {list(b.shape)}",
                    expected="shapes that broadcast (equal, or 1, in each dimension from the "
                    "right)",
                ) from None
        raise
    _size_check(shape, "the broadcast result")
    return shape


def _operands(a: Any, b: Any) -> tuple[Tensor, Tensor]:
    ta = a if isinstance(a, Tensor) else None
    tb = b if isinstance(b, Tensor) else None
    if ta is None and tb is None:
        raise GradcliError("expected at least one Tensor operand")
    ta = ta if ta is not None else _scalar_operand(a, tb)
    tb = tb if tb is not None else _scalar_operand(b, ta)
    _broadcast_shape(ta, tb)
    return ta, tb


def _scalar_operand(v: Any, like: Tensor) -> Tensor:
    if isinstance(v, (int, float, bool)) or isinstance(v, np.number):
        return as_tensor(v, like=like)
    if isinstance(v, (list, tuple)):
        return Tensor(_data_array(v, None))
    raise GradcliError(
        f"unsupported operand type: {_typename(v)} and Tensor", expected="a Tensor or a number"
    )


def _binop(op: Any, label: str | None = None) -> Callable[[Any, Any], Tensor]:
    def f(a: Any, b: Any) -> Tensor:
        ta, tb = _operands(a, b)
        return apply(op, ta, tb, label=label)

    return f


add_t = _binop(O.add)
sub_t = _binop(O.sub)
mul_t = _binop(O.mul)
div_t = _binop(O.div)
maximum = _binop(O.maximum)
minimum = _binop(O.minimum)


def add(x: Any, y: Any, alpha: Any = 1) -> Tensor:
    return add_t(x, y if alpha == 1 else mul_t(y, alpha) if isinstance(y, Tensor) else y * alpha)


def sub(x: Any, y: Any, alpha: Any = 1) -> Tensor:
    return sub_t(x, y if alpha == 1 else mul_t(y, alpha) if isinstance(y, Tensor) else y * alpha)


def pow_(x: Any, e: Any) -> Tensor:
    if isinstance(x, Tensor) and not isinstance(e, Tensor):
        if isinstance(e, bool) or not isinstance(e, (int, float)):
            raise GradcliError(f"pow(): exponent must be a number or Tensor, not {_typename(e)}")
        if isinstance(e, int) and abs(e) > 10_000:
            raise GradcliError(f"exponent {e} is too large", hint="use a float exponent")
        return apply(O.pow_scalar, x, p=e)
    if not isinstance(x, Tensor) and isinstance(e, Tensor):
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            raise GradcliError(f"pow(): base must be a number or Tensor, not {_typename(x)}")
        return apply(O.rpow_scalar, e, base=float(x))
    a, b = _operands(x, e)
    return apply(O.pow_, a, b)


def _unary(op: Any) -> Callable[..., Tensor]:
    def f(x: Any) -> Tensor:
        return apply(op, _tensor_arg(x, "input"))

    f.__name__ = op.name
    return f


neg = _unary(O.neg)
exp = _unary(O.exp)
log = _unary(O.log)
log1p = _unary(O.log1p)
sqrt = _unary(O.sqrt)
abs_ = _unary(O.abs_)
sin = _unary(O.sin)
cos = _unary(O.cos)
tan = _unary(O.tan)
tanh = _unary(O.tanh)
sigmoid = _unary(O.sigmoid)
sign = _unary(O.sign)
erf = _unary(O.erf)


def relu(x: Any, inplace: bool = False) -> Tensor:
    return apply(O.relu, _tensor_arg(x, "input"))


def leaky_relu(x: Any, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    return apply(O.leaky_relu, _tensor_arg(x, "input"), negative_slope=float(negative_slope))


def softplus(x: Any, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return apply(O.softplus, _tensor_arg(x, "input"), beta=float(beta), threshold=float(threshold))


def gelu(x: Any, approximate: str = "none") -> Tensor:
    if approximate not in ("none", "tanh"):
        raise GradcliError(f"approximate argument must be either none or tanh, not {approximate!r}")
    return apply(O.gelu, _tensor_arg(x, "input"), approximate=approximate)


def clamp(x: Any, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    if min is None and max is None:
        raise GradcliError("torch.clamp: At least one of 'min' or 'max' must not be None")
    lo = None if min is None else float(min)
    hi = None if max is None else float(max)
    return apply(O.clamp, _tensor_arg(x, "input"), min=lo, max=hi)


def _named(t: Tensor, label: str) -> Tensor:
    """Show PyTorch's grad_fn name for a result gradcli computes with a more general op."""
    if t.node is not None:
        t.node.label = label
    return t


def sub_op(a: Any, b: Any) -> Tensor:
    """`a - b`: with a number on the left PyTorch records RsubBackward1."""
    out = sub_t(a, b)
    return out if isinstance(a, Tensor) else _named(out, "RsubBackward1")


def div_op(a: Any, b: Any) -> Tensor:
    """`a / b`: PyTorch computes number / x as reciprocal(x) * number (MulBackward0)."""
    out = div_t(a, b)
    return out if isinstance(a, Tensor) else _named(out, "MulBackward0")


def clamp_min(x: Any, min: Any) -> Tensor:  # noqa: A002
    return _named(clamp(x, min=min), "ClampMinBackward0")


def clamp_max(x: Any, max: Any) -> Tensor:  # noqa: A002
    return _named(clamp(x, max=max), "ClampMaxBackward0")


def where(condition: Any, x: Any, y: Any) -> Tensor:
    c = condition if isinstance(condition, Tensor) else Tensor(np.asarray(condition, dtype=bool))
    like = x if isinstance(x, Tensor) else y if isinstance(y, Tensor) else None
    if like is None:
        like = Tensor(np.zeros((), dtype=Settings.default_dtype))
    tx = x if isinstance(x, Tensor) else _scalar_operand(x, like)
    ty = y if isinstance(y, Tensor) else _scalar_operand(y, like)
    shape = _broadcast_shape(tx, ty)
    _broadcast_shape(c, Tensor(np.broadcast_to(np.zeros((), bool), shape)))
    return apply(O.where, c, tx, ty)


# --- comparisons: constant boolean masks -------------------------------------------------------


def _compare(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Tensor]:
    def f(a: Any, b: Any) -> Tensor:
        ta, tb = _operands(a, b)
        return Tensor(fn(ta.data, tb.data))

    return f


lt = _compare(np.less)
le = _compare(np.less_equal)
gt = _compare(np.greater)
ge = _compare(np.greater_equal)
eq = _compare(np.equal)
ne = _compare(np.not_equal)

# --- reductions --------------------------------------------------------------------------------


def _reduce_label(base: str, dim: Any) -> str:
    return f"{base}Backward{0 if dim is None else 1}"


def sum_(x: Any, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
    x = _tensor_arg(x, "input")
    d = _dims_arg(dim, x.ndim)
    return apply(O.sum_, x, dim=d, keepdim=bool(keepdim), label=_reduce_label("Sum", dim))


def mean(x: Any, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
    x = _tensor_arg(x, "input")
    if x.dtype.kind != "f":
        raise GradcliError(
            "mean(): could not infer output dtype. Input dtype must be either a "
            "floating point or complex dtype."
        )
    d = _dims_arg(dim, x.ndim)
    return apply(O.mean, x, dim=d, keepdim=bool(keepdim), label=_reduce_label("Mean", dim))


def prod(x: Any, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
    x = _tensor_arg(x, "input")
    d = None if dim is None else _check_dim(dim, x.ndim)
    return apply(O.prod, x, dim=d, keepdim=bool(keepdim), label=_reduce_label("Prod", dim))


class MinMax(tuple):
    """`torch.return_types.max` / `min`: a (values, indices) pair with names."""

    kind = "max"

    def __new__(cls, values: Tensor, indices: Tensor, kind: str) -> MinMax:
        obj = super().__new__(cls, (values, indices))
        obj.kind = kind
        return obj

    @property
    def values(self) -> Tensor:
        return self[0]

    @property
    def indices(self) -> Tensor:
        return self[1]


def _extreme(fn: str) -> Callable[..., Any]:
    op = O.amax if fn == "max" else O.amin
    pair = maximum if fn == "max" else minimum

    def f(x: Any, dim: Any = None, keepdim: bool = False, other: Any = None) -> Any:
        x = _tensor_arg(x, "input")
        if isinstance(dim, Tensor):
            return pair(x, dim)
        if other is not None:
            return pair(x, other)
        if dim is None:
            return apply(op, x, fn=fn, label=f"{fn.capitalize()}Backward1")
        d = _check_dim(dim, x.ndim)
        if x.ndim and x.shape[d] == 0:
            raise GradcliError(f"{fn}(): Expected reduction dim {d} to have non-zero size.")
        values = apply(
            op, x, dim=d, keepdim=bool(keepdim), fn=fn, label=f"{fn.capitalize()}Backward0"
        )
        idx = getattr(np, "arg" + fn)(x.data, axis=d if x.ndim else None)
        if keepdim and x.ndim:
            idx = np.expand_dims(idx, d)
        return MinMax(values, Tensor(np.asarray(idx, dtype=np.int64)), fn)

    f.__name__ = fn
    return f


max_ = _extreme("max")
min_ = _extreme("min")


def _amax_like(fn: str) -> Callable[..., Tensor]:
    def f(x: Any, dim: Any = (), keepdim: bool = False) -> Tensor:
        x = _tensor_arg(x, "input")
        if dim is None or dim == () or x.ndim == 0:
            return (max_ if fn == "max" else min_)(x)
        dims = _dims_arg(dim, x.ndim)
        dims = dims if isinstance(dims, tuple) else (dims,)
        # As torch.amax: the gradient is split evenly between tied extremes. The value is a
        # mask-weighted sum (the mask is a constant), so gradients flow only to the ties.
        red = np.max if fn == "max" else np.min
        hit = x.data == red(x.data, axis=dims, keepdims=True)
        w = Tensor((hit / hit.sum(axis=dims, keepdims=True)).astype(x.dtype))
        return apply(O.sum_, mul_t(x, w), dim=dims, keepdim=bool(keepdim), label=f"A{fn}Backward0")

    f.__name__ = "a" + fn
    return f


amax = _amax_like("max")
amin = _amax_like("min")


def argmax(x: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
    x = _tensor_arg(x, "input")
    if dim is None:
        return Tensor(np.asarray(np.argmax(x.data), dtype=np.int64))
    return max_(x, dim, keepdim).indices


def argmin(x: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
    x = _tensor_arg(x, "input")
    if dim is None:
        return Tensor(np.asarray(np.argmin(x.data), dtype=np.int64))
    return min_(x, dim, keepdim).indices


def norm(
    x: Any, p: Any = "fro", dim: Any = None, keepdim: bool = False, dtype: Any = None
) -> Tensor:
    x = _tensor_arg(x, "input")
    if p in ("fro", None):
        pv = 2.0
    elif isinstance(p, str):
        raise GradcliError(f"norm(): p={p!r} is not supported", expected="'fro', a number or inf")
    else:
        pv = float(p)
        if pv <= 0:
            raise GradcliError("norm(): gradcli supports p > 0 (and inf)")
    return apply(
        O.norm,
        x,
        p=pv,
        dim=_dims_arg(dim, x.ndim),
        keepdim=bool(keepdim),
        label="LinalgVectorNormBackward0",
    )


def logsumexp(x: Any, dim: Any, keepdim: bool = False) -> Tensor:
    x = _tensor_arg(x, "input")
    return apply(O.logsumexp, x, dim=_dims_arg(dim, x.ndim), keepdim=bool(keepdim))


def _softmax_dim(x: Tensor, dim: Any) -> int:
    if dim is None:
        # PyTorch's legacy implicit choice (with a warning there).
        dim = 0 if x.ndim in (0, 1, 3) else 1
    return _check_dim(dim, x.ndim)


def softmax(x: Any, dim: Any = None, dtype: Any = None, _stacklevel: int = 3) -> Tensor:
    x = _tensor_arg(x, "input")
    return apply(O.softmax, x, dim=_softmax_dim(x, dim))


def log_softmax(x: Any, dim: Any = None, dtype: Any = None, _stacklevel: int = 3) -> Tensor:
    x = _tensor_arg(x, "input")
    return apply(O.log_softmax, x, dim=_softmax_dim(x, dim))


def _correction(unbiased: Any, correction: Any) -> float:
    if correction is not None:
        return float(correction)
    return 1.0 if unbiased in (None, True) else 0.0


def var(
    x: Any, dim: Any = None, unbiased: Any = None, keepdim: bool = False, correction: Any = None
) -> Tensor:
    x = _tensor_arg(x, "input")
    if isinstance(dim, bool):  # torch.var(x, False): the old positional `unbiased`
        unbiased, dim = dim, None
    return apply(
        O.var,
        x,
        dim=_dims_arg(dim, x.ndim),
        correction=_correction(unbiased, correction),
        keepdim=bool(keepdim),
    )


def std(
    x: Any, dim: Any = None, unbiased: Any = None, keepdim: bool = False, correction: Any = None
) -> Tensor:
    x = _tensor_arg(x, "input")
    if isinstance(dim, bool):
        unbiased, dim = dim, None
    return apply(
        O.std,
        x,
        dim=_dims_arg(dim, x.ndim),
        correction=_correction(unbiased, correction),
        keepdim=bool(keepdim),
    )


# --- shape -----------------------------------------------------------------------------------


def _infer_shape(shape: tuple[int, ...], size: int) -> tuple[int, ...]:
    if shape.count(-1) > 1:
        raise GradcliError("only one dimension can be inferred")
    known = 1
    for s in shape:
        if s != -1:
            known *= s
    if -1 in shape:
        if known == 0 or size % known:
            raise GradcliError(f"shape '{list(shape)}' is invalid for input of size {size}")
        shape = tuple(size // known if s == -1 else s for s in shape)
    elif known != size:
        raise GradcliError(f"shape '{list(shape)}' is invalid for input of size {size}")
    return shape


def reshape(x: Any, *shape: Any) -> Tensor:
    x = _tensor_arg(x, "input")
    target = _infer_shape(_sizes(shape, infer=True), x.numel())
    return apply(O.reshape, x, shape=target, label="ViewBackward0")


view = reshape


def flatten(x: Any, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    x = _tensor_arg(x, "input")
    if x.ndim == 0:
        return apply(O.reshape, x, shape=(1,), label="ViewBackward0")
    s, e = _check_dim(start_dim, x.ndim), _check_dim(end_dim, x.ndim)
    if s > e:
        raise GradcliError("flatten() has invalid args: start_dim cannot come after end_dim")
    mid = int(np.prod(x.shape[s : e + 1]))
    return apply(O.reshape, x, shape=x.shape[:s] + (mid,) + x.shape[e + 1 :], label="ViewBackward0")


def squeeze(x: Any, dim: Any = None) -> Tensor:
    x = _tensor_arg(x, "input")
    if dim is None:
        shape = tuple(s for s in x.shape if s != 1)
        return apply(O.reshape, x, shape=shape, label="SqueezeBackward0")
    dims = _dims_arg(dim, x.ndim)
    dims = dims if isinstance(dims, tuple) else (dims,)
    shape = tuple(s for i, s in enumerate(x.shape) if not (i in dims and s == 1))
    return apply(O.reshape, x, shape=shape, label="SqueezeBackward1")


def unsqueeze(x: Any, dim: Any) -> Tensor:
    x = _tensor_arg(x, "input")
    d = _check_dim(dim, x.ndim + 1)
    return apply(O.reshape, x, shape=x.shape[:d] + (1,) + x.shape[d:], label="UnsqueezeBackward0")


def permute(x: Any, *dims: Any) -> Tensor:
    x = _tensor_arg(x, "input")
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    perm = tuple(_check_dim(d, x.ndim) for d in dims)
    if len(perm) != x.ndim or sorted(perm) != list(range(x.ndim)):
        raise GradcliError(
            f"permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {x.ndim} is not "
            f"equal to len(dims) = {len(perm)}"
            if len(perm) != x.ndim
            else "permute(): duplicate dims are not allowed."
        )
    return apply(O.permute, x, perm=perm)


def transpose(x: Any, dim0: Any, dim1: Any) -> Tensor:
    x = _tensor_arg(x, "input")
    if x.ndim == 0:
        return x
    a, b = _check_dim(dim0, x.ndim), _check_dim(dim1, x.ndim)
    perm = list(range(x.ndim))
    perm[a], perm[b] = perm[b], perm[a]
    return apply(O.permute, x, perm=tuple(perm), label="TransposeBackward0")


swapaxes = transpose


def t(x: Any) -> Tensor:
    x = _tensor_arg(x, "input")
    if x.ndim > 2:
        raise GradcliError(f"t() expects a tensor with <= 2 dimensions, but self is {x.ndim}D")
    if x.ndim < 2:
        return x
    return apply(O.permute, x, perm=(1, 0), label="TBackward0")


def _T(x: Tensor) -> Tensor:  # noqa: N802
    if x.ndim < 2:
        # Still a new (view) node in PyTorch, even when it changes nothing.
        return apply(O.permute, x, perm=tuple(range(x.ndim)), label="PermuteBackward0")
    return apply(O.permute, x, perm=tuple(range(x.ndim - 1, -1, -1)), label="PermuteBackward0")


def _mT(x: Tensor) -> Tensor:  # noqa: N802
    if x.ndim < 2:
        raise GradcliError(
            "tensor.mT is only supported on matrices or batches of matrices. "
            f"Got {x.ndim}-D tensor."
        )
    # permute acts on trailing axes, so this also transposes a gradient with batch axes.
    return apply(O.permute, x, perm=(1, 0), label="TransposeBackward0")


def expand(x: Any, *sizes: Any) -> Tensor:
    x = _tensor_arg(x, "input")
    shape = _sizes(sizes, infer=True)
    if len(shape) < x.ndim:
        raise GradcliError(
            f"expand(torch.FloatTensor{{{list(x.shape)}}}, size={list(shape)}): the number of "
            f"sizes provided ({len(shape)}) must be greater or equal to the number of "
            f"dimensions in the tensor ({x.ndim})"
        )
    lead = len(shape) - x.ndim
    full_shape = tuple(
        x.shape[i - lead] if s == -1 and i >= lead else s for i, s in enumerate(shape)
    )
    for i in range(x.ndim):
        if x.shape[i] != 1 and x.shape[i] != full_shape[lead + i]:
            raise GradcliError(
                f"The expanded size of the tensor ({full_shape[lead + i]}) must match the "
                f"existing size ({x.shape[i]}) at non-singleton dimension {lead + i}.  "
                f"Target sizes: {list(shape)}.  Tensor sizes: {list(x.shape)}"
            )
    _size_check(full_shape, "the expanded tensor")
    return apply(O.expand, x, shape=full_shape)


def expand_as(x: Any, other: Tensor) -> Tensor:
    return expand(x, _tensor_arg(other).shape)


def broadcast_to(x: Any, shape: Any) -> Tensor:
    return expand(x, shape)


def view_as(x: Any, other: Tensor) -> Tensor:
    return reshape(x, _tensor_arg(other).shape)


reshape_as = view_as


def _tensor_list(tensors: Any, fn: str) -> list[Tensor]:
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise GradcliError(
            f"{fn}(): argument 'tensors' must be a tuple or list of Tensors, "
            f"not {_typename(tensors)}"
        )
    if not tensors:
        raise GradcliError(f"{fn}(): expected a non-empty list of Tensors")
    return [_tensor_arg(t, f"{fn}() element") for t in tensors]


def cat(tensors: Any, dim: int = 0) -> Tensor:
    ts = _tensor_list(tensors, "cat")
    nd = ts[0].ndim
    if nd == 0:
        raise GradcliError("zero-dimensional tensor (at position 0) cannot be concatenated")
    d = _check_dim(dim, nd)
    for i, tt in enumerate(ts):
        if (
            tt.ndim != nd
            or tt.shape[:d] + tt.shape[d + 1 :] != ts[0].shape[:d] + ts[0].shape[d + 1 :]
        ):
            raise GradcliError(
                f"Sizes of tensors must match except in dimension {d}. Expected size "
                f"{list(ts[0].shape)} but got size {list(tt.shape)} for tensor number {i} in "
                f"the list."
            )
    _size_check((sum(tt.numel() for tt in ts),), "the concatenated tensor")
    return apply(O.cat, *ts, dim=d)


def stack(tensors: Any, dim: int = 0) -> Tensor:
    ts = _tensor_list(tensors, "stack")
    d = _check_dim(dim, ts[0].ndim + 1)
    for i, tt in enumerate(ts):
        if tt.shape != ts[0].shape:
            raise GradcliError(
                f"stack expects each tensor to be equal size, but got "
                f"{list(ts[0].shape)} at entry 0 and {list(tt.shape)} at entry {i}"
            )
    _size_check((sum(tt.numel() for tt in ts),), "the stacked tensor")
    return apply(O.stack, *ts, dim=d)


def _index_result_size(shape: tuple[int, ...], idx: tuple) -> int:
    """The number of elements `x[idx]` has, computed without making it (0 if the index is
    invalid: NumPy then refuses it without allocating anything)."""
    try:
        consumed = 0
        for k in idx:
            if isinstance(k, np.ndarray) and k.dtype == bool:
                consumed += k.ndim
            elif k is not None and k is not Ellipsis:
                consumed += 1
        total, pos, arrays = 1, 0, []
        for k in idx:
            if k is None:
                continue
            if k is Ellipsis:
                for d in shape[pos : pos + len(shape) - consumed]:
                    total *= d
                pos += len(shape) - consumed
            elif isinstance(k, slice):
                total *= len(range(*k.indices(shape[pos])))
                pos += 1
            elif isinstance(k, np.ndarray):
                arrays.append((int(np.count_nonzero(k)),) if k.dtype == bool else k.shape)
                pos += k.ndim if k.dtype == bool else 1
            else:
                pos += 1
        for d in shape[pos:]:
            total *= d
        if arrays:
            total *= math.prod(np.broadcast_shapes(*arrays))
        return total
    except (IndexError, ValueError, TypeError):
        return 0


def _normalize_index(x: Tensor, key: Any) -> tuple:
    items = key if isinstance(key, tuple) else (key,)
    out = []
    for k in items:
        if k is None or k is Ellipsis or isinstance(k, slice):
            if isinstance(k, slice):
                for part in (k.start, k.stop, k.step):
                    if part is not None and not isinstance(part, (int, np.integer)):
                        if isinstance(part, Tensor) and part.data.size == 1:
                            continue
                        raise GradcliError(
                            f"slice indices must be integers or None, not {_typename(part)}"
                        )
                if k.step is not None and int(k.step) <= 0:
                    raise GradcliError("step must be greater than zero")
            out.append(k)
        elif isinstance(k, bool):
            out.append(np.asarray(k))
        elif isinstance(k, (int, np.integer)):
            out.append(int(k))
        elif isinstance(k, Tensor):
            if k.dtype.kind == "b":
                out.append(k.data)
            elif k.dtype.kind in "iu" or (
                k.dtype.kind == "f" and np.all(k.data == np.round(k.data))
            ):
                if k.dtype.kind == "f" and k.ndim == 0:
                    raise GradcliError(
                        "only integers, slices, ellipsis, None and integer or "
                        "boolean tensors are valid indices",
                        found="a float tensor",
                    )
                out.append(k.data.astype(np.int64))
            else:
                raise GradcliError(
                    "tensors used as indices must be long, int, byte or bool tensors"
                )
        elif isinstance(k, list):
            # A list of booleans is a mask, as in PyTorch (not the integers 1 and 0).
            arr = _data_array(k, None)
            out.append(arr if arr.dtype == bool else np.asarray(_data_array(k, np.int64)))
        else:
            raise GradcliError(
                "only integers, slices (`:`), ellipsis (`...`), None and integer or boolean "
                f"tensors are valid indices (got {_typename(k)})"
            )
    idx = tuple(out)
    # The probe below makes the result (of bytes): refuse a huge one before it is made.
    _size_check((_index_result_size(x.shape, idx),), "the indexed result")
    # Check bounds (and let NumPy find any other problem) on a zero-cost view.
    try:
        probe = np.broadcast_to(np.zeros((), dtype=np.int8), x.shape)[idx]
    except IndexError as e:
        msg = str(e)
        if "out of bounds" in msg:
            raise GradcliError(
                f"index out of range: {msg}", hint=f"the tensor has shape {list(x.shape)}"
            ) from None
        raise GradcliError(
            f"invalid index: {msg}", hint=f"the tensor has shape {list(x.shape)}"
        ) from None
    _size_check(probe.shape, "the indexed result")
    return idx


def index_assign(x: Tensor, key: Any, value: Any) -> Tensor:
    """`x[key] = value` when gradients must flow (PyTorch's CopySlices), out of place: the
    result is x with the indexed region replaced, differentiable in both x and value."""
    idx = _normalize_index(x, key)
    region = np.broadcast_to(np.zeros((), dtype=np.int8), x.shape)[idx].shape
    v = value if isinstance(value, Tensor) else _scalar_operand(value, x)
    try:
        np.broadcast_shapes(v.shape, region)
        if len(v.shape) > len(region):
            raise ValueError
    except ValueError:
        raise GradcliError(
            f"shape mismatch: value tensor of shape {list(v.shape)} cannot be broadcast to "
            f"indexing result of shape {list(region)}"
        ) from None
    if v.dtype != x.dtype:
        v = to_dtype(v, x.dtype)
    if v.shape != region:
        v = expand(v, region)
    keep = np.ones(x.shape, dtype=bool)
    keep[idx] = False
    placed = apply(
        O.index_put, v, idx=idx, shape=x.shape, out_ndim=len(region), label="IndexPutBackward0"
    )
    return apply(O.add, mul_t(x, Tensor(keep.astype(x.dtype))), placed, label="CopySlices")


def getitem(x: Tensor, key: Any) -> Tensor:
    items = key if isinstance(key, tuple) else (key,)
    ints = [isinstance(k, int) and not isinstance(k, bool) for k in items]
    arrays = [
        isinstance(k, (list, Tensor)) and not (isinstance(k, Tensor) and k.ndim == 0) for k in items
    ]
    plain = all(k is not None and k is not Ellipsis for k in items)
    if any(ints) and any(arrays) and plain:
        # PyTorch selects integer indices first and then applies the tensor indices; NumPy
        # would treat the integers as advanced indices too (and can move the result's axes).
        first = tuple(k if i else slice(None) for k, i in zip(items, ints))
        rest = tuple(k for k, i in zip(items, ints) if not i)
        return getitem(getitem(x, first), rest)
    idx = _normalize_index(x, key)
    label = (
        "SelectBackward0"
        if all(isinstance(i, int) for i in idx)
        else ("SliceBackward0" if all(isinstance(i, slice) for i in idx) else "IndexBackward0")
    )
    return apply(O.index, x, idx=idx, label=label)


# --- linear algebra --------------------------------------------------------------------------


def matmul(x: Any, y: Any) -> Tensor:
    x, y = _tensor_arg(x, "input"), _tensor_arg(y, "other")
    if x.ndim == 0 or y.ndim == 0:
        raise GradcliError(
            f"both arguments to matmul need to be at least 1D, but they are {x.ndim}D and {y.ndim}D"
        )
    k1 = x.shape[-1]
    k2 = y.shape[-2] if y.ndim >= 2 else y.shape[0]
    if k1 != k2:
        a = f"{x.shape[-2] if x.ndim >= 2 else 1}x{k1}"
        b = f"{k2}x{y.shape[-1] if y.ndim >= 2 else 1}"
        raise GradcliError(
            f"mat1 and mat2 shapes cannot be multiplied ({a} and {b})",
            found=f"shapes {list(x.shape)} @ {list(y.shape)}",
            expected="the last dimension of the left operand to equal the first (of the last "
            "two) of the right",
            hint="transpose one of them (x.T or x.t())?",
        )
    bx = x.shape[:-2] if x.ndim > 2 else ()
    by = y.shape[:-2] if y.ndim > 2 else ()
    try:
        batch = np.broadcast_shapes(bx, by)
    except ValueError:
        raise GradcliError(
            f"matmul: batch dimensions {list(bx)} and {list(by)} do not broadcast"
        ) from None
    rows = (x.shape[-2],) if x.ndim >= 2 else ()
    cols = (y.shape[-1],) if y.ndim >= 2 else ()
    _size_check(tuple(batch) + rows + cols, "the matmul result")
    label = (
        "DotBackward0"
        if x.ndim == y.ndim == 1
        else "MvBackward0"
        if y.ndim == 1 and x.ndim == 2
        else "MmBackward0"
        if x.ndim == y.ndim == 2
        else "UnsafeViewBackward0"
    )
    return apply(O.matmul, x, y, label=label)


def _ndim_check(fn: str, t: Tensor, n: int, name: str) -> None:
    if t.ndim != n:
        raise GradcliError(
            f"{fn}: {name} must be a {n}D tensor, got {t.ndim}D (shape {list(t.shape)})"
        )


def mm(x: Any, y: Any) -> Tensor:
    x, y = _tensor_arg(x), _tensor_arg(y)
    _ndim_check("mm", x, 2, "self")
    _ndim_check("mm", y, 2, "mat2")
    return matmul(x, y)


def mv(x: Any, v: Any) -> Tensor:
    x, v = _tensor_arg(x), _tensor_arg(v)
    _ndim_check("mv", x, 2, "self")
    _ndim_check("mv", v, 1, "vec")
    return matmul(x, v)


def bmm(x: Any, y: Any) -> Tensor:
    x, y = _tensor_arg(x), _tensor_arg(y)
    _ndim_check("bmm", x, 3, "batch1")
    _ndim_check("bmm", y, 3, "batch2")
    return _named(matmul(x, y), "BmmBackward0")


def dot(x: Any, y: Any) -> Tensor:
    x, y = _tensor_arg(x), _tensor_arg(y)
    if x.ndim != 1 or y.ndim != 1:
        raise GradcliError(f"1D tensors expected, but got {x.ndim}D and {y.ndim}D tensors")
    if x.shape != y.shape:
        raise GradcliError(
            f"inconsistent tensor size, expected tensor [{x.shape[0]}] and src "
            f"[{y.shape[0]}] to have the same number of elements, but got "
            f"{x.shape[0]} and {y.shape[0]} elements respectively"
        )
    return matmul(x, y)


def outer(x: Any, y: Any) -> Tensor:
    x, y = _tensor_arg(x), _tensor_arg(y)
    if x.ndim != 1 or y.ndim != 1:
        raise GradcliError(f"outer: expected 1D tensors, got {x.ndim}D and {y.ndim}D")
    return mul_t(unsqueeze(x, 1), y)


ger = outer

# --- losses --------------------------------------------------------------------------------


def _reduction(reduction: Any, size_average: Any = None, reduce: Any = None) -> str:
    if reduction not in ("mean", "sum", "none"):
        raise GradcliError(
            f"{reduction!r} is not a valid value for reduction", expected="'mean', 'sum' or 'none'"
        )
    return reduction


def mse_loss(
    input: Any,
    target: Any,
    size_average: Any = None,
    reduce: Any = None,  # noqa: A002
    reduction: str = "mean",
) -> Tensor:
    x, y = _operands(_tensor_arg(input, "input"), target)
    return apply(O.mse_loss, x, y, reduction=_reduction(reduction))


def binary_cross_entropy(
    input: Any,
    target: Any,
    weight: Any = None,  # noqa: A002
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    p = _tensor_arg(input, "input")
    t = target if isinstance(target, Tensor) else _scalar_operand(target, p)
    if t.shape != p.shape:
        raise GradcliError(
            f"Using a target size (torch.Size({list(t.shape)})) that is different to the input "
            f"size (torch.Size({list(p.shape)})) is deprecated. Please ensure they have the "
            "same size."
        )
    w = None if weight is None else np.broadcast_to(_tensor_arg(weight).data, p.shape)
    return apply(O.binary_cross_entropy, p, t, weight=w, reduction=_reduction(reduction))


def _class_targets(x: Tensor, target: Any, fn: str) -> np.ndarray:
    t = target if isinstance(target, Tensor) else Tensor(np.asarray(target))
    want = x.shape[:-1] if x.ndim >= 1 else ()
    if x.ndim > 2:
        raise GradcliError(
            f"{fn}: gradcli supports input of shape (C) or (N, C), got {list(x.shape)}"
        )
    if t.shape != want:
        raise GradcliError(
            f"{fn}: expected target of shape {list(want)} (class indices), got {list(t.shape)}"
        )
    d = t.data
    if d.dtype.kind == "f":
        if not np.all(d == np.round(d)):
            raise GradcliError(f"{fn}: class-index targets must be integers")
    d = d.astype(np.int64)
    c = x.shape[-1]
    bad = (d != -100) & ((d < 0) | (d >= c))
    if np.any(bad):
        raise GradcliError(
            f"Target {int(d[bad].flat[0])} is out of bounds.",
            hint=f"class indices must be in [0, {c - 1}]",
        )
    return d


def nll_loss(
    input: Any,
    target: Any,
    weight: Any = None,
    size_average: Any = None,  # noqa: A002
    ignore_index: int = -100,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    x = _tensor_arg(input, "input")
    t = _class_targets(x, target, "nll_loss")
    w = None if weight is None else _tensor_arg(weight).data
    return apply(
        O.nll_loss,
        x,
        target=t,
        weight=w,
        reduction=_reduction(reduction),
        ignore_index=int(ignore_index),
    )


def cross_entropy(
    input: Any,
    target: Any,
    weight: Any = None,  # noqa: A002
    size_average: Any = None,
    ignore_index: int = -100,
    reduce: Any = None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    x = _tensor_arg(input, "input")
    cdim = 1 if x.ndim >= 2 else 0
    logp = log_softmax(x, dim=cdim)
    tt = target if isinstance(target, Tensor) else Tensor(np.asarray(target))
    if label_smoothing:
        raise GradcliError("cross_entropy: label_smoothing is not supported by gradcli")
    if tt.shape == x.shape and tt.dtype.kind == "f":
        # Class probabilities as target.
        per = neg(sum_(mul_t(logp, tt if weight is None else mul_t(tt, weight)), dim=cdim))
        if reduction == "none":
            return per
        total = sum_(per)
        n = x.shape[0] if x.ndim >= 2 else 1
        return total if reduction == "sum" else div_t(total, n)
    return nll_loss(logp, tt, weight=weight, ignore_index=ignore_index, reduction=reduction)


# --- dtype ---------------------------------------------------------------------------------


def to_dtype(x: Any, dtype: Any) -> Tensor:
    x = _tensor_arg(x)
    dt = np.dtype(dtype)
    if dt == x.dtype:
        return x
    if dt.kind != "f" or x.dtype.kind != "f":
        return Tensor(x.data.astype(dt))
    return apply(O.astype, x, dtype=dt)


def clone(x: Any, memory_format: Any = None) -> Tensor:
    x = _tensor_arg(x)
    return apply(O.reshape, x, shape=x.shape, label="CloneBackward0")


# --- torch.nn modules: torch.nn.Sigmoid()(x) -----------------------------------------------


class Module:
    """A `torch.nn` module instance that wraps one function (no parameters of its own)."""

    def __init__(self, name: str, fn: Callable[..., Tensor], args: tuple, kwargs: dict):
        self.name, self.fn, self.args, self.kwargs = name, fn, args, kwargs

    def __call__(self, *inputs: Any) -> Tensor:
        return self.fn(*inputs, *self.args, **self.kwargs)

    def __repr__(self) -> str:
        return f"{self.name}()"


def _module(
    name: str, fn: Callable[..., Tensor], positional: tuple[str, ...] = ()
) -> Callable[..., Module]:
    def make(*args: Any, **kwargs: Any) -> Module:
        kw = dict(zip(positional, args))
        kw.update({k: v for k, v in kwargs.items() if k != "inplace"})
        return Module(name, fn, (), kw)

    return make


MODULES: dict[str, Callable[..., Module]] = {
    "Sigmoid": _module("Sigmoid", sigmoid),
    "Tanh": _module("Tanh", tanh),
    "ReLU": _module("ReLU", relu),
    "LeakyReLU": _module("LeakyReLU", leaky_relu, ("negative_slope",)),
    "Softplus": _module("Softplus", softplus, ("beta", "threshold")),
    "GELU": _module("GELU", gelu, ("approximate",)),
    "Softmax": _module("Softmax", softmax, ("dim",)),
    "LogSoftmax": _module("LogSoftmax", log_softmax, ("dim",)),
    "MSELoss": _module("MSELoss", mse_loss, ("size_average", "reduce", "reduction")),
    "BCELoss": _module(
        "BCELoss", binary_cross_entropy, ("weight", "size_average", "reduce", "reduction")
    ),
    "NLLLoss": _module("NLLLoss", nll_loss, ("weight",)),
    "CrossEntropyLoss": _module("CrossEntropyLoss", cross_entropy, ("weight",)),
    "Identity": _module("Identity", lambda x: x),
}

# --- in-place methods (only where autograd allows them) -------------------------------------


def _inplace(x: Tensor, value: Any) -> Tensor:
    from ..core.autograd import _GradMode

    if x.requires_grad and x.node is None and _GradMode.enabled:
        raise GradcliError(
            "a leaf Variable that requires grad is being used in an in-place operation.",
            hint="operate on x.data (or x.grad) instead, as optimisers do",
        )
    if x.requires_grad and x.node is not None:
        raise GradcliError(
            "gradcli does not support in-place operations on tensors that are part of a graph",
            hint="write y = y + ... (a new tensor) instead",
        )
    new = np.asarray(value.data if isinstance(value, Tensor) else value)
    try:
        x.data[...] = np.broadcast_to(new, x.shape)
    except ValueError:
        if np.broadcast_shapes(new.shape, x.shape) != x.shape:
            raise GradcliError(
                f"output with shape {list(x.shape)} doesn't match the broadcast "
                f"shape {list(np.broadcast_shapes(new.shape, x.shape))}"
            ) from None
        x.data = np.array(np.broadcast_to(new, x.shape), dtype=x.dtype)
    return x


def _scaled(other: Any, alpha: Any) -> Any:
    o = other.data if isinstance(other, Tensor) else np.asarray(other)
    return o * alpha


INPLACE: dict[str, Callable[..., Tensor]] = {
    "zero_": lambda x: _inplace(x, 0),
    "fill_": lambda x, v: _inplace(x, v.data if isinstance(v, Tensor) else float(v)),
    "add_": lambda x, o, alpha=1: _inplace(x, x.data + _scaled(o, alpha)),
    "sub_": lambda x, o, alpha=1: _inplace(x, x.data - _scaled(o, alpha)),
    "mul_": lambda x, o: _inplace(x, x.data * _scaled(o, 1)),
    "div_": lambda x, o: _inplace(x, x.data / _scaled(o, 1)),
    "copy_": lambda x, o: _inplace(x, _tensor_arg(o).data),
    "clamp_": lambda x, min=None, max=None: _inplace(x, np.clip(x.data, min, max)),  # noqa: A006
}

# --- Tensor methods and operators ------------------------------------------------------------


def _method_sizes(fn: Callable[..., Tensor]) -> Callable[..., Tensor]:
    def m(self: Tensor, *sizes: Any) -> Tensor:
        return fn(self, *sizes)

    return m


def _size(self: Tensor, dim: Any = None) -> Any:
    from .printing import Size

    if dim is None:
        return Size(self.shape)
    return self.shape[_check_dim(dim, self.ndim)]


def _tolist(self: Tensor) -> Any:
    return self.data.tolist()


def _detach(self: Tensor) -> Tensor:
    return Tensor(self.data)


def _swap(fn: Callable[[Any, Any], Tensor]) -> Callable[[Any, Any], Tensor]:
    return lambda a, b: fn(b, a)


METHODS: dict[str, Callable[..., Any]] = {
    # arithmetic
    "add": add,
    "sub": sub,
    "mul": mul_t,
    "div": div_t,
    "multiply": mul_t,
    "divide": div_t,
    "subtract": sub,
    "true_divide": div_t,
    "pow": pow_,
    "neg": neg,
    "negative": neg,
    "matmul": matmul,
    "mm": mm,
    "mv": mv,
    "bmm": bmm,
    "dot": dot,
    "outer": outer,
    "maximum": maximum,
    "minimum": minimum,
    # elementwise
    "exp": exp,
    "log": log,
    "log1p": log1p,
    "sqrt": sqrt,
    "abs": abs_,
    "sin": sin,
    "cos": cos,
    "tan": tan,
    "tanh": tanh,
    "sigmoid": sigmoid,
    "relu": relu,
    "sign": sign,
    "erf": erf,
    "clamp": clamp,
    "clip": clamp,
    "clamp_min": clamp_min,
    "clamp_max": clamp_max,
    "softmax": softmax,
    "log_softmax": log_softmax,
    # reductions
    "sum": sum_,
    "mean": mean,
    "prod": prod,
    "max": max_,
    "min": min_,
    "amax": amax,
    "amin": amin,
    "argmax": argmax,
    "argmin": argmin,
    "norm": norm,
    "logsumexp": logsumexp,
    "var": var,
    "std": std,
    # shape
    "reshape": _method_sizes(reshape),
    "view": _method_sizes(reshape),
    "flatten": flatten,
    "squeeze": squeeze,
    "unsqueeze": unsqueeze,
    "permute": _method_sizes(permute),
    "transpose": transpose,
    "swapaxes": transpose,
    "t": t,
    "expand": _method_sizes(expand),
    "expand_as": expand_as,
    "view_as": view_as,
    "reshape_as": reshape_as,
    "broadcast_to": broadcast_to,
    # comparisons
    "lt": lt,
    "le": le,
    "gt": gt,
    "ge": ge,
    "eq": eq,
    "ne": ne,
    # conversions and bookkeeping
    "float": lambda x: to_dtype(x, np.float32),
    "double": lambda x: to_dtype(x, np.float64),
    "long": lambda x: Tensor(x.data.astype(np.int64)),
    "int": lambda x: Tensor(x.data.astype(np.int64)),
    "bool": lambda x: Tensor(x.data.astype(bool)),
    "to": lambda x, dtype=None, *a, **k: (
        x if dtype is None or isinstance(dtype, str) else to_dtype(x, dtype)
    ),
    "type": lambda x, dtype=None: to_dtype(x, dtype) if dtype is not None else x.dtype.name,
    "clone": clone,
    "contiguous": lambda x, *a, **k: x,
    "cpu": lambda x: x,
    "cuda": lambda x: x,
    "detach": _detach,
    "item": Tensor.item,
    "tolist": _tolist,
    "numel": Tensor.numel,
    "size": _size,
    "dim": lambda x: x.ndim,
    "ndimension": lambda x: x.ndim,
    "backward": Tensor.backward,
    "retain_grad": Tensor.retain_grad,
    "requires_grad_": Tensor.requires_grad_,
    "numpy": lambda x: x,
    **INPLACE,
}

# `x.name(...)` methods that take a second tensor where PyTorch's function does too.
_OPERATORS: dict[str, Callable[..., Any]] = {
    "__add__": add_t,
    "__radd__": _swap(add_t),
    "__sub__": sub_t,
    "__rsub__": lambda a, b: sub_op(b, a),
    "__mul__": mul_t,
    "__rmul__": _swap(mul_t),
    "__truediv__": div_t,
    "__rtruediv__": lambda a, b: div_op(b, a),
    "__pow__": pow_,
    "__rpow__": _swap(pow_),
    "__matmul__": matmul,
    "__rmatmul__": _swap(matmul),
    "__neg__": neg,
    "__pos__": lambda x: x,
    "__abs__": abs_,
    "__getitem__": getitem,
    "__lt__": lt,
    "__le__": le,
    "__gt__": gt,
    "__ge__": ge,
}


def _install() -> None:
    for name, fn in _OPERATORS.items():
        setattr(Tensor, name, fn)
    for name, fn in METHODS.items():
        if not hasattr(Tensor, name) or name in ("size",):
            setattr(Tensor, name, fn)
    Tensor.T = property(_T)  # type: ignore[attr-defined]
    Tensor.mT = property(_mT)  # type: ignore[attr-defined]


_install()

# Functions reachable as torch.X / torch.nn.functional.X / F.X.
FUNCTIONS: dict[str, Callable[..., Any]] = {
    name: fn
    for name, fn in METHODS.items()
    if name not in INPLACE
    and name
    not in (
        "backward",
        "retain_grad",
        "requires_grad_",
        "item",
        "tolist",
        "numel",
        "size",
        "dim",
        "ndimension",
        "to",
        "type",
        "cpu",
        "cuda",
        "numpy",
        "contiguous",
        "float",
        "double",
        "long",
        "int",
        "bool",
    )
}
FUNCTIONS.update(
    {
        "tensor": tensor,
        "as_tensor": tensor,
        "from_numpy": tensor,
        "Tensor": Tensor_,
        "FloatTensor": FloatTensor,
        "DoubleTensor": DoubleTensor,
        "Variable": Variable,
        "zeros": zeros,
        "ones": ones,
        "empty": empty,
        "full": full,
        "eye": eye,
        "arange": arange,
        "linspace": linspace,
        "rand": rand,
        "randn": randn,
        "zeros_like": zeros_like,
        "ones_like": ones_like,
        "empty_like": empty_like,
        "full_like": full_like,
        "rand_like": rand_like,
        "randn_like": randn_like,
        "where": where,
        "cat": cat,
        "concat": cat,
        "concatenate": cat,
        "stack": stack,
        "leaky_relu": leaky_relu,
        "softplus": softplus,
        "gelu": gelu,
        "mse_loss": mse_loss,
        "binary_cross_entropy": binary_cross_entropy,
        "nll_loss": nll_loss,
        "cross_entropy": cross_entropy,
        "reshape": reshape,
        "permute": permute,
        "expand": expand,
        "manual_seed": manual_seed,
        "numel": Tensor.numel,
        "ger": ger,
        "square": lambda x: pow_(x, 2),
        "rsqrt": lambda x: div_t(1.0, sqrt(x)),
        "reciprocal": lambda x: _named(div_t(1.0, x), "ReciprocalBackward0"),
        "sub": sub,
        "add": add,
    }
)
METHODS.update(
    {
        "square": FUNCTIONS["square"],
        "rsqrt": FUNCTIONS["rsqrt"],
        "reciprocal": FUNCTIONS["reciprocal"],
    }
)

# Compositions of the operations above (linear, silu, cumsum, gather, sort, ...).
from . import composite as _composite  # noqa: E402

FUNCTIONS.update({**_composite.BOTH, **_composite.FUNCTIONS_ONLY})
METHODS.update({**_composite.BOTH, **_composite.METHODS_ONLY})
MODULES.update(_composite.MODULES)
for _name, _fn in {**_composite.BOTH, **_composite.METHODS_ONLY}.items():
    if not hasattr(Tensor, _name):
        setattr(Tensor, _name, _fn)
