"""Elementwise records of two tensor inputs, which broadcast: add, sub, mul, div, pow,
maximum, minimum, where (whose condition is not differentiated), atan2, the remainders and
the divisions that round, and the ones PyTorch has no derivative for (floor_divide,
heaviside).

Rules return gradients in the broadcast shape: the engine's one `unbroadcast` reduces them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core import powf32
from ..core import primitives as P
from ..core import saved as V
from ..core.autograd import complex_record
from ..core.fma64 import _fma64
from ..core.op import Node, Op, Sample, apply, binary_samples, defop, producer, register
from ..core.tensor import Tensor, constant, grad_enabled

add = register(P.add)
# A sum with alpha= is recorded as a product and a sum, the sum labelled with its own name
# (`surface.functional.add`): its alpha is not kept.
_ALPHA = V.saves(alpha=V.const(1))
_SCALED = V.saves(alpha=V.refused("torch.add / torch.sub with alpha= is recorded as a product"))


def _linear_mm(n: Node) -> Node | None:
    """The product of F.linear / nn.Linear with a bias (`x @ w.t()`, then the sum labelled
    AddmmBackward0): the node of the sum's first input, when it is a matrix product."""
    p = producer(n.inputs[0], n.seq)
    if p is None or p.name() != "MmBackward0" or p.inputs[0].ndim != 2:
        return None
    return p


def _mm_of(n: Node) -> Node:
    return _linear_mm(n)  # type: ignore[return-value]  (checked by `_add_saved`)


# PyTorch's AddmmBackward0 keeps the product's operands (mat1 = x, mat2 = w.t()): each for
# the other's gradient, their sizes, their strides for their own.
_ADDMM = V.saves(
    alpha=V.const(1),
    beta=V.const(1),
    mat1=V.via(_mm_of, V.arg(0, V.needs(1))),
    mat1_sym_sizes=V.via(_mm_of, V.sizes(0)),
    mat1_sym_strides=V.via(_mm_of, V.strides(0)),
    mat2=V.via(_mm_of, V.arg(1, V.needs(0))),
    mat2_sym_sizes=V.via(_mm_of, V.sizes(1)),
    mat2_sym_strides=V.via(_mm_of, V.strides(1)),
)


def _add_saved(n: Node) -> Any:
    if n.label is None:
        return _ALPHA
    if n.label == "AddBackward0":
        return _SCALED
    if n.label == "AddmmBackward0" and _linear_mm(n) is not None:
        return _ADDMM
    return None


add.saved = _add_saved
sub = defop(
    "sub",
    np.subtract,
    lambda g, out, x, y: (g, -g),
    "SubBackward0",
    "g, -g",
    saved=lambda n: _ALPHA if n.label is None else _SCALED if n.label == "SubBackward0" else None,
    sym=lambda sp, x, y: x - y,
    saves=False,
    kind="binary",
    samples=binary_samples(),
    to_torch="{0} - {1}",
    to_jax="{0} - {1}",
    complex="holo",
    complex_forward=P.alpha_sum(-1 + 0j),
    jvp_terms=((0, ()), (1, ())),  # (`self_t - other_t`)
)


# torch.rsub(input, other) of two tensors: other - input, PyTorch's own node (its inputs in
# the call's order, input first).
rsub = defop(
    "rsub",
    lambda x, y: np.subtract(y, x),
    lambda g, out, x, y: (-g, g),
    "RsubBackward0",
    "-g, g",
    saved=lambda n: _ALPHA,
    sym=lambda sp, x, y: y - x,
    saves=False,
    kind="binary",
    samples=binary_samples(),
    to_torch="torch.rsub({0}, {1})",
    to_jax="{1} - {0}",
)


# Each input is saved for the other's gradient; `2 * x` is PyTorch's `x * 2` (self is x).
# (In PyTorch's order of saving: what saved_tensors_hooks' pack_hook is called with first.)
_MUL = V.saves(other=V.arg(1, V.needs(0)), self=V.arg(0, V.needs(1)))
_RMUL = V.saves(other=V.arg(0, V.needs(1)), self=V.arg(1, V.needs(0)))


def _mul_link(out: Tensor, x: Tensor, y: Tensor) -> tuple[int, np.ndarray] | None:
    # A product with a constant (x * 2.0, or 2.0 * x) of the other's dtype, not broadcasting
    # the input that needs the gradient: its gradient is g * the constant.
    # (The arrays' own dtype and shape: the tensors' properties cost a call each.)
    xd, yd = x.data, y.data
    if x.requires_grad == y.requires_grad or xd.dtype != yd.dtype:
        return None
    if x.requires_grad:
        return (0, yd) if xd.shape == out.data.shape else None
    return (1, xd) if yd.shape == out.data.shape else None


def _times(g: Tensor, v: Tensor) -> Tensor:
    """`g * v` for mul's rule. In a first-order pass, when `g` is a broadcast of exactly 1
    (sum's gradient: `loss = (a * b).sum()`) in `v`'s shape and dtype, the product is `v`
    itself, to the bit (1 * v is v in IEEE arithmetic, signed zeros, infinities and nan
    included): `v`'s values, read-only (as a broadcast gradient is), with no pass over them."""
    d, vd = g.data, v.data
    if (
        d.ndim
        and not any(d.strides)
        and d.shape == vd.shape
        and d.dtype == vd.dtype
        and d.dtype.kind == "f"  # (a complex 1 times inf + inf j is not that number)
        and d.size
        and d.item(0) == 1
        and not grad_enabled()
    ):
        view = vd.view()
        view.flags.writeable = False
        return Tensor(view)
    return g * v


def _complex_parts(
    ar: np.ndarray, ai: np.ndarray, br: np.ndarray, bi: np.ndarray, fused: bool
) -> tuple[np.ndarray, np.ndarray]:
    """(ar + i ai)(br + i bi): each product rounded (`fused` False), or the first product of
    each part fused into the sum (fma(ar, br, -(ai bi)), fma(ar, bi, ai br))."""
    if not fused:
        return ar * br - ai * bi, ar * bi + ai * br
    if ar.dtype == np.float32:  # (a float32 product is exact in float64)
        w = np.float64
        return (
            (ar.astype(w) * br + (-(ai * bi)).astype(w)).astype(np.float32),
            (ar.astype(w) * bi + (ai * br).astype(w)).astype(np.float32),
        )
    return _fma64(ar, br, -(ai * bi)), _fma64(ar, bi, ai * br)


def _inner_length(shape: tuple, *operands: np.ndarray) -> int:
    """The length of the innermost loop TensorIterator runs for an elementwise op of these
    operands into a row-major result of `shape`: the trailing dimensions it coalesces, those
    where every operand's (broadcast) strides continue the next dimension's."""
    return _inner_loop(shape, *operands)[0]


def _inner_loop(shape: tuple, *operands: np.ndarray) -> tuple[int, bool]:
    """(`_inner_length`, whether an operand stays the same all along that loop: a number, a
    broadcast row or column)."""
    if not shape:
        return 1, True
    strides = []
    for t in operands:
        lead = len(shape) - t.ndim
        st, acc = [0] * len(shape), 1
        for k in range(t.ndim - 1, -1, -1):
            if t.shape[k] != 1:
                st[lead + k] = acc
            acc *= t.shape[k]
        strides.append(st)
    inner = shape[-1]
    for k in range(len(shape) - 2, -1, -1):
        if any(st[k] != st[k + 1] * shape[k + 1] for st in strides):
            break
        inner *= shape[k]
    return max(inner, 1), any(st[-1] == 0 for st in strides)


def _fused(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a * b + c rounded once, in the arrays' float dtype."""
    if a.dtype == np.float32:
        return powf32.fma32(a, b, c)
    return _fma64(a, b, c)


# True while `x.div_(y)` / `x /= y` computes (`into_dividend`): PyTorch's complex64 kernel
# writing into its own dividend rounds the rest of its loop otherwise
IN_PLACE_DIVISION = [False]


def into_dividend(compute: Callable[[], Any]) -> Any:
    """compute() (`x.div_(y)`, `x /= y`'s division) as a division into its own dividend."""
    IN_PLACE_DIVISION[0] = True
    try:
        return compute()
    finally:
        IN_PLACE_DIVISION[0] = False


def complex_divide(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x / y with a complex operand, as PyTorch's CPU kernel rounds it (measured on tensors
    of every length up to 40, 1000, a broadcast number or row: it takes no vector path):
    c10::complex's division, Smith's (NumPy's), the compiler's contraction of each product and
    sum into one fused multiply-add. With |c| >= |d| (x = a + bi, y = c + di): r = d/c,
    s = 1/fma(d, r, c), re = fma(b, r, a) s, im = fma(-a, r, b) s; otherwise the same with
    c and d exchanged, re = fma(a, r, b) s, im = fma(b, r, -a) s. complex64 runs two elements
    at a time; an odd last one of a loop (of its innermost row) has its two numerators rounded
    separately (a + b r, b - a r) and only the denominator fused, and so have all the last
    n % 8 of a division in place (`IN_PLACE_DIVISION`: another compiled loop). 0 / 0 is
    divided per part, a / |c| and b / |d| (a complex infinity or NaN), as c10's."""
    xb, yb = np.broadcast_arrays(x, y)
    dt = np.result_type(x.dtype, y.dtype)
    ft = np.dtype(np.float32 if dt == np.complex64 else np.float64)
    a, b = xb.real.astype(ft), np.imag(xb).astype(ft)
    c, d = yb.real.astype(ft), np.imag(yb).astype(ft)
    big = np.abs(c) >= np.abs(d)
    with np.errstate(all="ignore"):
        p, q = np.where(big, c, d), np.where(big, d, c)  # r = q / p, the denominator p + q r
        u, v = np.where(big, a, b), np.where(big, b, a)  # re's numerator u + v r
        w, z = np.where(big, -a, b), np.where(big, b, -a)  # im's numerator z + w r
        r = q / p
        s = np.asarray(1, ft) / _fused(q, r, p)
        re = _fused(v, r, u) * s
        im = _fused(w, r, z) * s
        shape = re.shape
        n = _inner_length(shape, x, y) if ft == np.float32 and re.size else 0
        # (the odd last element of each innermost loop; into the dividend itself, every one
        # after the loop's multiples of 8)
        start = n - n % 8 if IN_PLACE_DIVISION[0] else n - n % 2
        if start < n:
            last = np.s_[:, start:]
            re, im = re.reshape(-1, n), im.reshape(-1, n)
            r2, s2 = r.reshape(-1, n)[last], s.reshape(-1, n)[last]
            re[last] = (u.reshape(-1, n)[last] + v.reshape(-1, n)[last] * r2) * s2
            im[last] = (z.reshape(-1, n)[last] + w.reshape(-1, n)[last] * r2) * s2
            re, im = re.reshape(shape), im.reshape(shape)
        zero = (p == 0) & (q == 0)
        if zero.any():
            re = np.where(zero, a / np.abs(c), re)
            im = np.where(zero, b / np.abs(d), im)
    out = np.empty(shape, dt)
    out.real = re
    out.imag = im
    return out


def _div_fwd(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "c" or y.dtype.kind == "c":
        return complex_divide(x, y)  # (a real operand promoted, as ATen: by c + 0i too)
    return np.divide(x, y)


def _mul_fwd(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x * y; of two complex arrays as PyTorch's CPU kernel rounds them. In each innermost
    loop (`_inner_length`: a whole tensor, or the rows of a broadcast) its vector loop
    multiplies 8 complex64 (4 complex128) at a time with separately rounded products; the
    compiler contracted the scalar loop of the rest into fused multiply-adds (`_tail`).
    Measured bit for bit, every length to 40, on tensors of one shape and times a number."""
    if x.dtype.kind != "c" or y.dtype != x.dtype or not x.size or not y.size:
        return np.multiply(x, y)
    xb, yb = np.broadcast_arrays(x, y)
    shape = xb.shape
    n, one = _inner_loop(shape, x, y)
    a, b = xb.reshape(-1, n), yb.reshape(-1, n)
    out = np.empty(a.shape, x.dtype)
    for lo, hi, fused in _tail(n, x.dtype == np.complex64, one):
        if hi > lo:
            p, q = a[:, lo:hi], b[:, lo:hi]
            re, im = _complex_parts(p.real, p.imag, q.real, q.imag, fused)
            out.real[:, lo:hi] = re
            out.imag[:, lo:hi] = im
    return out.reshape(shape)


def _tail(n: int, single: bool, one: bool) -> tuple:
    """The runs (from, to, fused) of a complex product loop of n elements: the vector loop's
    (products rounded separately), then the compiled rest: complex128 fused one by one;
    complex64 fused two at a time (an odd last one not), or, times one number, four at a time
    after the first of the rest, when at least five are left (the others not fused)."""
    k = n - n % (8 if single else 4)
    if not single:
        return ((0, k, False), (k, n, True))
    if not one:
        pair = k + (n - k) // 2 * 2
        return ((0, k, False), (k, pair, True), (pair, n, False))
    if n - k < 5:
        return ((0, n, False),)
    return ((0, k + 1, False), (k + 1, k + 5, True), (k + 5, n, False))


def _mul_vjp(g: Tensor, out: Tensor, x: Tensor, y: Tensor) -> tuple:
    # Only the gradients wanted (x * 2.0 needs no gradient for the constant).
    # (dtypes only: what the rule reads is x and y, never `out`: `core.autograd._reads`)
    # MulBackward0 computes other's gradient first, then self's (measured: with
    # create_graph=True the product for `other` is the older node), which orders the float
    # sums of a later pass where gradients meet
    if "c" in (g.dtype.kind, x.dtype.kind, y.dtype.kind):
        # PyTorch's mul_tensor_backward, grad * other.conj(), as that product: the engine's
        # conj(rule(conj(g))) has the same values but a zero imaginary part that cancels
        # exactly (2+2i times the conjugate of 1+1i) comes out as -0 where PyTorch's is 0
        gy = g * _conj(x) if y.requires_grad else None
        return (g * _conj(y) if x.requires_grad else None, gy)
    gy = _times(g, x) if y.requires_grad else None
    return (_times(g, y) if x.requires_grad else None, gy)


def _conj(t: Tensor) -> Tensor:
    """The conjugate of mul's operand as PyTorch's rule takes it: an operand that is real in
    PyTorch (a number or a real tensor, `z * 2`, `z * w`, which gradcli converted to complex
    for the product) is its own conjugate; its complex value conjugated would flip the sign
    of its zero imaginary parts."""
    if t.data.dtype.kind != "c" or V.wrapped(t) or t.name == V.REAL_AS_COMPLEX:
        return t
    n = t.node
    if n is not None and n.op.name == "astype" and n.inputs[0].data.dtype.kind != "c":
        return t
    return apply(complex_record("conj"), t)


mul = defop(
    "mul",
    _mul_fwd,
    _mul_vjp,
    "MulBackward0",
    "g * y, g * x",
    saved=lambda n: (
        None if n.name() != "MulBackward0" else _RMUL if V.wrapped(n.inputs[0]) else _MUL
    ),
    link=_mul_link,
    sym=lambda sp, x, y: x * y,
    kind="binary",
    samples=binary_samples(),
    to_torch="{0} * {1}",
    to_jax="{0} * {1}",
    jvp_reads_primal=True,
    jvp_terms=((1, (0,)), (0, (1,))),  # (`other_t * self_p + self_t * other_p`)
    complex="rule",  # (`_mul_vjp`: PyTorch's own product for complex values)
)


def _div_vjp(g: Tensor, out: Tensor, x: Tensor, y: Tensor) -> tuple:
    # PyTorch's formulas, g / y and -g * ((x / y) / y): the latter from the inputs
    # DivBackward0 saves (self, other), not from the output, which may be changed in place
    # after the division. Its generated DivBackward0 computes other's gradient first, then
    # self's: recorded in that order (create_graph), a second pass sums the gradients these
    # nodes send back in PyTorch's order, to the last bit in float32. (Within other's formula
    # the compiled C++ builds the right factor, (x / y) / y, before -g.)
    gy = None
    if y.requires_grad:
        q = x / y / y
        gy = -g * q
    gx = g / y if x.requires_grad else None
    return (gx, gy)


def _lined_up(d: Tensor | None, t: Tensor, out: Tensor) -> Tensor | None:
    """The tangent `d` of the input `t` (with leading batch axes) shaped to broadcast against
    the result's: its batch axes, then `t`'s dimensions aligned at the end."""
    if d is None:
        return None
    lead = d.ndim - t.ndim
    shape = d.shape[:lead] + (1,) * (out.ndim - t.ndim) + t.shape
    return d if d.shape == shape else apply(P.reshape, d, shape=shape)


def _div_jvp(dots: tuple, out: Tensor, x: Tensor, y: Tensor) -> Tensor | None:
    # PyTorch's forward formula, (dx - dy * out) / y: one quotient of the difference, not the
    # sum of the two gradients (dx / y - dy * ((x / y) / y)), which rounds otherwise (forward
    # mode, jvp, jacfwd, and the Hessians of torch.func, whose outer jacfwd runs through the
    # divisions of a gradient). A missing tangent is a zero term left out, as PyTorch's zero
    # tensors are: dx / y, or -dy * out / y (the tangent negated first: the sign of a zero,
    # and of a NaN, as PyTorch's).
    # With grad mode on (a tangent recorded), `dy * out` of a missing dy is PyTorch's
    # ZeroTensor term, recorded where `out` requires grad: the tangent has that grad history.
    dx, dy = (None if d is None else tangent_at_rank(d, t, out) for d, t in zip(dots, (x, y)))
    if dy is None:
        if dx is not None and out.requires_grad and grad_enabled():
            from ..core.forward import zero_term

            shape = np.broadcast_shapes(dx.shape, out.shape)
            dx = dx - zero_term((out,), shape, dx.dtype, "MulBackward0", sign=1.0)
        return None if dx is None else dx / y
    if dx is None:
        return -dy * out / y
    return (dx - dy * out) / y


div = defop(
    "div",
    _div_fwd,
    _div_vjp,
    "DivBackward0",
    "g / y, -g * x / y^2",
    saved=V.saves(other=V.arg(1, V.needs(0, 1)), self=V.arg(0, V.needs(1))),
    sym=lambda sp, x, y: x / y,
    jvp=_div_jvp,
    kind="binary",
    samples=binary_samples(avoid=(0.0,), gap=0.3),
    to_torch="{0} / {1}",
    to_jax="{0} / {1}",
    jvp_reads_primal=True,
    complex="holo",
)


def _pow_tt_vjp(g: Tensor, out: Tensor, x: Tensor, y: Tensor) -> tuple:
    return (_pow_dx(g, x, y) if x.requires_grad else None, _pow_dy(g, out, x, y))


def _pow_dy(g: Tensor, out: Tensor, x: Tensor, y: Tensor) -> Tensor | None:
    # PyTorch's pow_backward_exponent: grad * where(x == 0 & y >= 0, 0, x^y log x). Built of
    # differentiable ops as PyTorch's is, so a second derivative meets what PyTorch's does
    # (the masked branch's 0 * log 0 = NaN at x == 0, as `torch.where` gives).
    if not y.requires_grad:
        return None
    inner = out * x.log()
    zero = (x.data == 0) & (np.real(y.data) >= 0)  # (a complex y: its real part, as ATen)
    if np.any(zero):
        cond = Tensor(np.broadcast_to(zero, inner.shape))
        inner = apply(where, cond, Tensor(np.zeros((), dtype=inner.dtype)), inner)
    return g * inner


def _pow_dx(g: Tensor, x: Tensor, y: Tensor) -> Tensor:
    # PyTorch's pow_backward_self: where(y == 0, 0, grad * (y * x^(y - 1))), so 0 where y is 0
    # (not 0 * 0^-1 = NaN at x == 0), as differentiable ops (its second derivative too).
    d = g * (y * x ** (y - 1))
    yz = y.data == 0
    if np.any(yz):
        cond = Tensor(np.broadcast_to(yz, d.shape))
        d = apply(where, cond, Tensor(np.zeros((), dtype=d.dtype)), d)
    return d


def _pow_tt_fwd(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """`x ** y` of two tensors; float32 as PyTorch's CPU kernel computes it (SLEEF's powf on
    the vectorised elements, the C library's powf on the rest: `core.powf32`); NumPy's own
    float32 power differs from it in the last digit for about 20% of inputs."""
    if x.dtype == np.float32 and y.dtype == np.float32:
        return powf32.pow_tensor_tensor(x, y)
    if x.dtype.kind == "c" or y.dtype.kind == "c":
        # ATen's complex kernel is the C library's cpow, exp(y log x) (NumPy's multiplies out
        # integer exponents: 1j ** 2 is -1 there, -1 - 8.7423e-08j in complex64 here)
        with np.errstate(all="ignore"):
            return np.exp(y * np.log(x))
    if x.dtype.kind in "iu" and y.dtype.kind == "i" and np.any(y < 0):
        # ATen's integer power (`powi`): a negative exponent gives 1 for a base of 1, -1 or 1
        # for a base of -1 (odd or even exponent), and 0 for any other base (0 too), where
        # NumPy refuses; only `int_tensor ** negative Python int` is an error in PyTorch
        x, y = np.broadcast_arrays(x, y)
        out = np.power(x, np.where(y < 0, 0, y))
        odd = (y % 2).astype(bool)
        neg = np.where(x == 1, 1, np.where(x == -1, np.where(odd, -1, 1), 0)).astype(out.dtype)
        return np.where(y < 0, neg, out)
    return np.power(x, y)


pow = defop(  # noqa: A001 - the record of torch.pow (tensor ** tensor)
    "pow",
    _pow_tt_fwd,
    _pow_tt_vjp,
    "PowBackward1",
    "g * y * x^(y-1), g * out * log(x)",
    saved=V.saves(exponent=V.arg(1), self=V.SELF, result=V.RESULT),
    sym=lambda sp, x, y: x**y,
    kind="binary",
    samples=binary_samples(low=0.2, high=2.0),
    to_torch="{0} ** {1}",
    to_jax="{0} ** {1}",
    complex="holo",
)


def _two_to(e: np.ndarray) -> np.ndarray:
    """2 ** e in e's dtype, as ATen's `pow(2.0, e)` computes it (the tensor-tensor kernel)."""
    return _pow_tt_fwd(np.asarray(2, dtype=e.dtype), e)


def _ldexp_fwd(x: np.ndarray, e: np.ndarray) -> np.ndarray:
    # ATen's ldexp: x * pow(2.0, e), each rounded in the dtype (measured: PyTorch's bits)
    return np.multiply(x, _two_to(e))


def _ldexp_vjp(g: Tensor, out: Tensor, x: Tensor, e: Tensor) -> tuple:
    # PyTorch's: g * 2^e for x; (g * out) * ln 2 for e (that order, to the bit)
    two = constant(np.asarray(2, dtype=e.dtype))
    return (
        g * apply(pow, two, e) if x.requires_grad else None,
        (g * out) * _LN2 if e.requires_grad else None,
    )


_LN2 = float(np.log(2.0))

ldexp = defop(
    "ldexp",
    _ldexp_fwd,
    _ldexp_vjp,
    "LdexpBackward0",
    "g * 2^e, g * out * ln 2",
    sym=lambda sp, x, e: x * 2**e,
    kind="binary",
    signature="ldexp(x, e), x.ldexp(e), x.ldexp_(e)",
    samples=binary_samples(low=-2.0, high=2.0),
    to_torch="torch.ldexp",
    to_jax="{0} * 2.0 ** {1}",
)


def _tie_vjp(g: Tensor, out: Tensor, x: Tensor, y: Tensor) -> tuple:
    # PyTorch's where(x == y, g / 2, g).masked_fill_(loses, 0): the input that loses gets
    # +0 (not g * 0, which is -0 for a negative g and prints so). With a NaN neither input
    # loses (x < y and x > y are both false there): each gets g whole
    with np.errstate(invalid="ignore"):
        nan = np.isnan(x.data) | np.isnan(y.data) if out.dtype.kind in "fc" else False
        wins = np.where(x.data == y.data, 0.5, np.where(nan, 1.0, (out.data == x.data) * 1.0))
        wins_y = np.where(nan, 1.0, 1.0 - wins)
    wx = constant(np.asarray(wins, dtype=out.dtype))
    gx = g * wx
    gy = g * (1 - wx) if not np.any(nan) else g * constant(np.asarray(wins_y, dtype=out.dtype))
    zero = constant(np.zeros((), dtype=out.dtype))
    if (wins == 0).any():
        gx = apply(where, constant(wins != 0), gx, zero)
    if (wins_y == 0).any():
        gy = apply(where, constant(wins_y != 0), gy, zero)
    return (gx, gy)


def _tie_jvp(larger: bool) -> Any:
    def rule(dots: tuple, out: Tensor, x: Tensor, y: Tensor) -> Tensor | None:
        # PyTorch's forward formula, dy + w * (dx - dy), w = 1/2 at a tie, else whether x
        # wins (0 where a value is NaN: the tangent is y's there). One rounding of the sum:
        # not dx itself where x wins. A missing tangent is a zero term left out: w * dx,
        # or dy + w * (0 - dy).
        dx, dy = (None if d is None else tangent_at_rank(d, t, out) for d, t in zip(dots, (x, y)))
        if dx is None and dy is None:
            return None
        with np.errstate(invalid="ignore"):
            wins = x.data > y.data if larger else x.data < y.data
            w = np.where(x.data == y.data, 0.5, wins).astype(out.dtype)
        wt = constant(w)
        if dy is None:
            return wt * dx
        return dy + wt * ((_zero(out) if dx is None else dx) - dy)

    return rule


maximum = defop(
    "maximum",
    np.maximum,
    _tie_vjp,
    "MaximumBackward0",
    "g * (x > y), g * (y > x); ties split g / 2 each",
    sym=lambda sp, x, y: sp.Max(x, y),
    jvp=_tie_jvp(True),
    kind="binary",
    kink="at ties x == y each input gets g / 2, as PyTorch",
    samples=binary_samples(distinct=True),
    to_torch="torch.maximum",
    to_jax="jnp.maximum",
)
minimum = defop(
    "minimum",
    np.minimum,
    _tie_vjp,
    "MinimumBackward0",
    "g * (x < y), g * (y < x); ties split g / 2 each",
    sym=lambda sp, x, y: sp.Min(x, y),
    jvp=_tie_jvp(False),
    kind="binary",
    kink="at ties x == y each input gets g / 2, as PyTorch",
    samples=binary_samples(distinct=True),
    to_torch="torch.minimum",
    to_jax="jnp.minimum",
)


# --- fmax / fmin: the larger (smaller) value, NaN ignored; a tie is input's in reverse mode --


def _nan_ignoring_keep(x: np.ndarray, y: np.ndarray, larger: bool, strict: bool) -> np.ndarray:
    """Where the result takes x: x wins (>= or <=; `strict` fmax's forward rule: >) or y is
    NaN (derivatives.yaml's masks)."""
    with np.errstate(invalid="ignore"):
        if larger:
            wins = x > y if strict else x >= y
        else:
            wins = x <= y
        return wins | np.isnan(y) if y.dtype.kind in "fc" else wins


def _nan_ignoring_vjp(larger: bool) -> Any:
    def rule(g: Tensor, out: Tensor, x: Tensor, y: Tensor) -> tuple:
        # grad.masked_fill(~keep, 0) for input, grad.masked_fill(keep, 0) for other (+0s)
        keep = constant(
            np.broadcast_to(_nan_ignoring_keep(x.data, y.data, larger, False), out.shape)
        )
        zero = constant(np.zeros((), dtype=g.dtype))
        return (
            apply(where, keep, g, zero) if x.requires_grad else None,
            apply(where, keep, zero, g) if y.requires_grad else None,
        )

    return rule


def _nan_ignoring_jvp(larger: bool) -> Any:
    def rule(dots: tuple, out: Tensor, x: Tensor, y: Tensor) -> Tensor | None:
        # derivatives.yaml: other_t + keep * (self_t - other_t), keep fmax's (self > other) or
        # fmin's (self <= other), or other NaN: a tie is other's tangent for fmax, input's for
        # fmin, and one rounding of the sum (not self_t itself where input is kept)
        dx, dy = (None if d is None else tangent_at_rank(d, t, out) for d, t in zip(dots, (x, y)))
        if dx is None and dy is None:
            return None
        w = constant(_nan_ignoring_keep(x.data, y.data, larger, True).astype(out.dtype))
        if dy is None:
            return w * dx
        return dy + w * ((_zero(out) if dx is None else dx) - dy)

    return rule


fmax = defop(
    "fmax",
    np.fmax,
    _nan_ignoring_vjp(True),
    "FmaxBackward0",
    "g * (x >= y or y nan), g * (x < y); forward mode: dy + (x > y or y nan) * (dx - dy)",
    sym=lambda sp, x, y: sp.Max(x, y),
    jvp=_nan_ignoring_jvp(True),
    kind="binary",
    kink="at ties x == y input gets g (forward mode: other's tangent), as PyTorch",
    samples=binary_samples(distinct=True),
    to_torch="torch.fmax",
    to_jax="jnp.fmax",
)
fmin = defop(
    "fmin",
    np.fmin,
    _nan_ignoring_vjp(False),
    "FminBackward0",
    "g * (x <= y or y nan), g * (x > y); forward mode: dy + (x <= y or y nan) * (dx - dy)",
    sym=lambda sp, x, y: sp.Min(x, y),
    jvp=_nan_ignoring_jvp(False),
    kind="binary",
    kink="at ties x == y input gets g, as PyTorch",
    samples=binary_samples(distinct=True),
    to_torch="torch.fmin",
    to_jax="jnp.fmin",
)


_TRI = frozenset(("TrilBackward0", "TriuBackward0"))


def _where_vjp(g: Tensor, out: Tensor, c: Tensor, x: Tensor, y: Tensor) -> tuple:
    # As PyTorch: where(c, g, 0) and where(c, 0, g), so the zeros are +0 (g * mask would give
    # -0 where g is negative, and print so).
    cond = Tensor(np.broadcast_to(c.data.astype(bool), out.shape))
    zero = Tensor(np.zeros((), dtype=g.dtype))
    # masked_fill (a where named so): PyTorch's rule grad.masked_fill(mask, 0), recorded as
    # MaskedFillBackward0 (create_graph)
    filled = out.node is not None and out.node.label == "MaskedFillBackward0"
    # tril / triu (a where named so): PyTorch's rule grad.tril(k), recorded as TrilBackward0
    kept = out.node.label if out.node is not None and out.node.label in _TRI else None
    return (
        None,
        apply(where, cond, g, zero, label=kept) if x.requires_grad else None,
        apply(where, cond, zero, g, label="MaskedFillBackward0" if filled else None)
        if y.requires_grad
        else None,
    )


def _where_jvp(dots: tuple, out: Tensor, c: Tensor, x: Tensor, y: Tensor) -> Tensor | None:
    # As PyTorch: where(c, x_t, y_t), a missing tangent +0 zeros (the diagonal rule's sum of
    # the two inputs' parts, where(c, x_t, 0) + where(c, 0, y_t), made -0.0 +0.0).
    _, dx, dy = dots
    if dx is None and dy is None:
        return None
    lead = dx.ndim - x.ndim if dx is not None else dy.ndim - y.ndim
    batch = (dx if dx is not None else dy).shape[:lead]
    parts = []
    for d, t in ((dx, x), (dy, y)):
        if d is None:
            shape = batch + (1,) * (out.ndim - t.ndim) + t.shape
            parts.append(Tensor(np.zeros(shape, dtype=t.data.dtype)))
        else:
            parts.append(_lined_up(d, t, out))
    cond = Tensor(c.data.astype(bool).reshape((1,) * lead + (1,) * (out.ndim - c.ndim) + c.shape))
    return apply(where, cond, *parts)


where = defop(
    "where",
    lambda c, x, y: np.where(c.astype(bool), x, y),
    _where_vjp,
    "WhereBackward0",
    "-, g * c, g * (1 - c)",
    # the rule reads the condition's values, only metadata of the rest (`out.node`: whether
    # it is a masked_fill), as PyTorch's node saves the condition alone
    reads=lambda p: (False, frozenset({0})),
    sym=None,
    kind="binary",
    nondiff=(0,),
    jvp=_where_jvp,
    signature="where(condition, x, y)",
    samples=(
        Sample(((2, 3), (2, 3), (2, 3)), fixed={0: np.array([[1, 0, 1], [0, 0, 1]], dtype=bool)}),
        Sample(((3,), (2, 3), (2, 1)), fixed={0: np.array([True, False, True])}),
        Sample(((2, 1), (), (3,)), fixed={0: np.array([[False], [True]])}),
        Sample(((), (4,), (4,)), fixed={0: np.array(True)}),
    ),
    to_torch="torch.where({0}.bool(), {1}, {2})",
    to_jax="jnp.where({0}.astype(bool), {1}, {2})",
    complex="rule",  # (the rule selects g's entries, complex ones as they are)
)


_ZERO_SLOPE: dict[str, Any] = {}


def zero_slope(sp: Any, name: str) -> Any:
    """sympy's `floor` or `ceiling` with a derivative of 0 (sympy's own leaves
    Derivative(floor(x), x) unevaluated): the convention of PyTorch's rules, 0 also at the
    jumps. One class per name, made when sympy is first used, so expressions compare equal."""
    cls = _ZERO_SLOPE.get(name)
    if cls is None:
        base = getattr(sp, name)
        cls = _ZERO_SLOPE[name] = type(name, (base,), {"fdiff": lambda self, i=1: sp.S.Zero})
    return cls


def sym_trunc(sp: Any, v: Any) -> Any:
    """trunc(v) for sympy: floor for v >= 0, ceiling below (both with a zero derivative)."""
    return sp.Piecewise((zero_slope(sp, "floor")(v), v >= 0), (zero_slope(sp, "ceiling")(v), True))


# --- atan2, division with rounding, remainders ------------------------------------------------


def _atan2_vjp(g: Tensor, out: Tensor, y: Tensor, x: Tensor) -> tuple:
    # PyTorch's atan2_backward: one reciprocal of y^2 + x^2, shared by both gradients, masked
    # to 0 where y^2 + x^2 is 0 (the origin, or squares that underflow): both gradients are 0
    # there, and a second derivative through the mask is nan there (0 times the reciprocal's
    # infinite slope), as PyTorch's. Where the sum is not 0 but its reciprocal overflows (a
    # subnormal sum; float16 near 1e-3) the reciprocal stays infinite, and so do the
    # gradients, as PyTorch's.
    denom = y * y + x * x
    recip = 1 / denom
    zero = denom.data == 0
    if np.any(zero):
        recip = apply(where, Tensor(~zero), recip, Tensor(np.zeros((), recip.dtype)))
    return (
        g * x * recip if y.requires_grad else None,
        g * -y * recip if x.requires_grad else None,
    )


def _atan2_jvp(dots: tuple, out: Tensor, y: Tensor, x: Tensor) -> Tensor | None:
    # PyTorch's forward formula, (-y * dx + x * dy) / (y^2 + x^2): a quotient, not the
    # backward's reciprocal (nan at the origin, finite where that reciprocal overflows; a
    # missing tangent is a zero term left out, as PyTorch's zero tensors are). A tangent may
    # carry leading batch axes: it is given out's rank so that it broadcasts with y and x.
    dy, dx = (None if d is None else tangent_at_rank(d, t, out) for d, t in zip(dots, (y, x)))
    num = None
    if dx is not None:
        num = -y * dx
    if dy is not None:
        num = x * dy if num is None else num + x * dy
    return None if num is None else num / (y**2 + x**2)


def _zero(out: Tensor) -> Tensor:
    return constant(np.zeros((), out.dtype))


def tangent_at_rank(d: Tensor, t: Tensor, out: Tensor) -> Tensor:
    """The tangent `d` of an input `t` (with any leading batch axes) given `out`'s rank, so
    that it broadcasts with the op's other inputs as `t` does."""
    lead = d.shape[: d.ndim - t.ndim]
    pad = out.ndim - t.ndim
    return d if pad == 0 else apply(P.reshape, d, shape=lead + (1,) * pad + t.shape)


def _atan2_fwd(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    if y.dtype == x.dtype == np.float32 and y.size:
        from ..core import cpu

        if cpu.amd():
            return _atan2_loop(y, x)
    if y.dtype.kind == "f" and y.dtype.itemsize < 8:  # rounded once from float64 (see exp)
        return np.arctan2(y.astype(np.float64), x.astype(np.float64)).astype(y.dtype)
    return np.arctan2(y, x)


def _atan2_loop(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """float32 atan2 as ATen's loop computes it on the avx2 family: SLEEF's atan2f (u10) on the
    whole vector steps (`sleef32.atan2f`: measured equal to torch there on 320,000 random pairs
    and every pair of zeros, infinities, NaN and subnormals), the C library's atan2f on the
    rest (`sleef32.split_loop`). (The avx512 family keeps the float64 result rounded once.)"""
    from ..core import powf32, sleef32

    def scalar(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        f = powf32._libm_function("atan2f", "c_float") if a.size <= sleef32.LIBM_CALLS else None
        if f is None:
            with np.errstate(all="ignore"):
                return np.arctan2(a.astype(np.float64), b.astype(np.float64)).astype(np.float32)
        return np.fromiter((f(u, v) for u, v in zip(a.tolist(), b.tolist())), np.float32, a.size)

    yb, xb = np.broadcast_arrays(y, x)
    return sleef32.split_loop(sleef32.atan2f, scalar, yb, xb)


atan2 = defop(
    "atan2",
    _atan2_fwd,
    _atan2_vjp,
    "Atan2Backward0",
    "g * x / (x^2 + y^2), -g * y / (x^2 + y^2)",
    sym=lambda sp, y, x: sp.atan2(y, x),
    jvp=_atan2_jvp,
    kind="binary",
    signature="atan2(y, x)",
    samples=binary_samples(avoid=(0.0,), gap=0.3),
    to_torch="torch.atan2",
    to_jax="jnp.arctan2",
)


def _hypot_vjp(g: Tensor, out: Tensor, x: Tensor, y: Tensor) -> tuple:
    # PyTorch's: grad * self / result, grad * other / result (exactly +-1 where the other is
    # 0; nan at the origin, 0 / 0)
    return (
        g * x / out if x.requires_grad else None,
        g * y / out if y.requires_grad else None,
    )


hypot = defop(
    "hypot",
    np.hypot,  # correctly rounded in its own dtype, as ATen's kernel
    _hypot_vjp,
    "HypotBackward0",
    "g * x / out, g * y / out",
    sym=lambda sp, x, y: sp.sqrt(x**2 + y**2),
    kind="binary",
    signature="hypot(x, y)",
    samples=binary_samples(avoid=(0.0,), gap=0.3),
    to_torch="torch.hypot",
    to_jax="jnp.hypot",
)


def _nonzero_divisor(b: np.ndarray) -> None:
    # Integer division by zero is an error in PyTorch (a float one gives inf or nan).
    if b.dtype.kind in "iub" and not np.all(b):
        raise GradcliError(
            "ZeroDivisionError",
            found="an integer division (// or %) by zero",
            hint="an integer tensor has no value for it; divide floats (x.float()) to get "
            "inf or nan",
        )


def floor_div_values(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """PyTorch's floor division: Python's (the quotient rounded down, a float quotient by 0 is
    a / b); NumPy's floor_divide computes it the same way, bit for bit."""
    _nonzero_divisor(b)
    return np.floor_divide(a, b)


def trunc_div_values(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Division rounded toward zero: trunc(a / b) for floats, C's integer division for ints."""
    _nonzero_divisor(b)
    if a.dtype.kind == "f":
        return np.trunc(np.divide(a, b))
    q = np.floor_divide(a, b)
    return q + ((np.remainder(a, b) != 0) & ((a < 0) != (b < 0))).astype(q.dtype)


def remainder_values(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Python's remainder (the sign of b), PyTorch's way for floats: fmod(a, b), plus b where
    it is nonzero and its sign differs from b's (a zero keeps fmod's sign, the sign of a)."""
    _nonzero_divisor(b)
    if a.dtype.kind != "f":
        return np.remainder(a, b)
    m = np.fmod(a, b)
    fix = (m != 0) & ((b < 0) != (m < 0))
    return np.where(fix, m + b, m) if np.any(fix) else m


def fmod_values(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """C's fmod: the remainder of a truncated division, with the sign of a."""
    _nonzero_divisor(b)
    return np.fmod(a, b)


def _quotient_vjp(quotient: Any) -> Any:
    # d(a - b * q)/da = 1, d/db = -q: q (floor or trunc of a / b) is piecewise constant.
    def vjp(g: Tensor, out: Tensor, a: Tensor, b: Tensor) -> tuple:
        if not b.requires_grad:
            return (g, None)
        q = constant(quotient(a.data, b.data).astype(out.dtype))
        return (g if a.requires_grad else None, -g * q)

    return vjp


remainder = defop(
    "remainder",
    remainder_values,
    _quotient_vjp(floor_div_values),
    "RemainderBackward1",
    "g, -g * floor(a / b)",
    sym=lambda sp, a, b: a - b * zero_slope(sp, "floor")(a / b),
    kind="binary",
    kink="at the jumps (a / b an integer) the gradient is g, -g * floor(a / b), as PyTorch",
    signature="remainder(a, b), a % b",
    samples=(
        Sample(((2, 3), (2, 3)), low=0.5, high=2.0),
        Sample(((2, 3), ()), low=0.7, high=1.3),
        Sample(((4, 1), (1, 3)), low=1.1, high=1.9),
    ),
    to_torch="torch.remainder",
    to_jax="jnp.remainder",
)
fmod = defop(
    "fmod",
    fmod_values,
    _quotient_vjp(trunc_div_values),
    "FmodBackward1",
    "g, -g * trunc(a / b)",
    sym=lambda sp, a, b: a - b * sym_trunc(sp, a / b),
    kind="binary",
    kink="at the jumps (a / b an integer) the gradient is g, -g * trunc(a / b), as PyTorch",
    signature="fmod(a, b)",
    samples=(
        Sample(((2, 3), (2, 3)), low=0.5, high=2.0),
        Sample(((2, 3), ()), low=0.7, high=1.3),
        Sample(((4, 1), (1, 3)), low=1.1, high=1.9),
    ),
    to_torch="torch.fmod",
    to_jax="jnp.fmod",
)


def _div_mode_fwd(a: np.ndarray, b: np.ndarray, rounding_mode: str = "floor") -> np.ndarray:
    return (floor_div_values if rounding_mode == "floor" else trunc_div_values)(a, b)


def _zeros_vjp(g: Tensor, out: Tensor, a: Tensor, b: Tensor, **params: Any) -> tuple:
    zero = constant(np.zeros(g.shape, dtype=g.dtype))
    return (zero if a.requires_grad else None, zero if b.requires_grad else None)


div_mode = defop(
    "div_mode",
    _div_mode_fwd,
    _zeros_vjp,
    "DivBackward2",
    "0, 0",
    # PyTorch's DivBackward2 saves both inputs (its zero gradients are written from them)
    reads=lambda p: (False, None),
    sym=lambda sp, a, b, rounding_mode="floor": (
        zero_slope(sp, "floor")(a / b) if rounding_mode == "floor" else sym_trunc(sp, a / b)
    ),
    kind="binary",
    kink="0 everywhere, also at the jumps (a / b an integer), as PyTorch",
    signature="div(a, b, rounding_mode='floor' | 'trunc')",
    samples=(
        Sample(((2, 3), (2, 3)), {"rounding_mode": "floor"}, low=0.5, high=2.0),
        Sample(((4, 1), (1, 3)), {"rounding_mode": "trunc"}, low=1.1, high=1.9),
    ),
    to_torch=lambda w, a, p: (
        f"torch.div({a[0]}, {a[1]}, rounding_mode={w.lit(p.get('rounding_mode', 'floor'))})"
    ),
    to_jax=lambda w, a, p: (
        f"jnp.floor_divide({a[0]}, {a[1]})"
        if p.get("rounding_mode", "floor") == "floor"
        else f"jnp.trunc({a[0]} / {a[1]})"
    ),
)


# --- no derivative in PyTorch: the result requires grad (grad_fn NotImplemented), and a
# backward through it fails with PyTorch's words.


def _undifferentiable(
    name: str, aten: str, forward: Any, formula: str, samples: tuple, **kw: Any
) -> Op:
    def vjp(g: Tensor, out: Tensor, *inputs: Tensor, **params: Any) -> tuple:
        raise GradcliError(f"derivative for aten::{aten} is not implemented")

    return defop(
        name,
        forward,
        vjp,
        "torch::autograd::NotImplemented",  # (name(); printed without the namespace)
        formula,
        kind="binary",
        saves=False,
        samples=samples,
        **kw,
    )


def _fixed(*arrays: Any) -> tuple:
    # Inputs given as they are, never differentiated (the records have no derivative).
    arrs = [np.asarray(a, dtype=np.float64) for a in arrays]
    return (Sample(tuple(a.shape for a in arrs), fixed=dict(enumerate(arrs)), hessian=False),)


floor_divide = _undifferentiable(
    "floor_divide",
    "floor_divide",
    floor_div_values,
    "not differentiable (as in PyTorch)",
    _fixed([[7.0, -7.0, 5.5], [-5.5, 0.0, 1.0]], [2.0, -2.0, 0.5])
    + _fixed([1.0, -1.0, 3.0, -3.0], [np.inf, np.inf, -np.inf, 0.5]),
    to_torch="torch.floor_divide",
    to_jax="jnp.floor_divide",
)
rremainder = _undifferentiable(
    "rremainder",
    "remainder",
    remainder_values,
    "number % tensor: not differentiable in the tensor (as in PyTorch)",
    _fixed(7.0, [2.0, -3.0, 2.5, 0.5]),
    to_torch="torch.remainder",
    to_jax="jnp.remainder",
)


# --- unique: its values require grad (Unique2Backward0, UniqueDimBackward0 or
# UniqueConsecutiveBackward0) and a backward through them fails with PyTorch's words.


def unique_parts(
    a: np.ndarray, dim: int | None = None, consecutive: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """torch.unique's (sorted) or unique_consecutive's values of `a`, with the inverse indices
    and the counts: over the elements (dim None) or the slices along `dim`; NaNs are never
    equal to each other in unique_consecutive's runs."""
    if consecutive:
        if dim is None:
            rows = a.reshape(-1, 1)
        else:
            rows = np.moveaxis(a, dim, 0).reshape(a.shape[dim], -1)
        n = rows.shape[0]
        starts = np.ones(n, dtype=bool)
        if n > 1:
            with np.errstate(invalid="ignore"):
                starts[1:] = ~np.all(rows[1:] == rows[:-1], axis=1)
        first = np.flatnonzero(starts)
        if dim is None:
            values = a.reshape(-1)[first]
        else:
            rest = tuple(s for i, s in enumerate(a.shape) if i != dim)
            values = np.moveaxis(rows[first].reshape((first.size,) + rest), 0, dim)
        inverse = (np.cumsum(starts) - 1).reshape(a.shape if dim is None else (n,))
        counts = np.diff(np.append(first, n))
        values = np.ascontiguousarray(values)
    elif dim is None:
        values, inverse, counts = np.unique(a, return_inverse=True, return_counts=True)
        inverse = inverse.reshape(a.shape)
    else:
        moved = np.moveaxis(a, dim, 0).reshape(a.shape[dim], -1)
        rows, inverse, counts = np.unique(moved, axis=0, return_inverse=True, return_counts=True)
        rest = tuple(s for i, s in enumerate(a.shape) if i != dim)
        values = np.moveaxis(rows.reshape((rows.shape[0],) + rest), 0, dim)
        inverse = inverse.reshape(-1)
    return values.astype(a.dtype), inverse.astype(np.int64), counts.astype(np.int64)


def unique_aten(dim: int | None, consecutive: bool) -> str:
    """The ATen operator PyTorch runs (and names in its errors) for these arguments."""
    return "unique_consecutive" if consecutive else "_unique2" if dim is None else "unique_dim"


def unique_node(dim: int | None, consecutive: bool) -> str:
    return {
        "unique_consecutive": "UniqueConsecutiveBackward0",
        "_unique2": "Unique2Backward0",
        "unique_dim": "UniqueDimBackward0",
    }[unique_aten(dim, consecutive)]


def _unique_vjp(
    g: Tensor, out: Tensor, x: Tensor, dim: int | None = None, consecutive: bool = False
) -> tuple:
    raise GradcliError(
        f"the derivative for '{unique_aten(dim, consecutive)}' is not implemented.",
        hint="unique's values have no gradient in PyTorch: detach the input, or reach the "
        "values through indexing (x[mask], x.gather(...)), which has one",
    ).mirror("NotImplementedError")


def _unique_jvp(dots: tuple, out: Tensor, x: Tensor, **params: Any) -> Tensor | None:
    from ..core import dual

    raise dual.not_implemented(unique_aten(params.get("dim"), params.get("consecutive", False)))


def _unique_torch(w: Any, a: list[str], p: dict[str, Any]) -> str:
    dim = "" if p.get("dim") is None else f", dim={p['dim']}"
    fn = "torch.unique_consecutive" if p.get("consecutive") else "torch.unique"
    return f"{fn}({a[0]}{dim})"


unique = defop(
    "unique",
    lambda x, dim=None, consecutive=False: unique_parts(x, dim, consecutive)[0],
    _unique_vjp,
    "Unique2Backward0",
    "not differentiable (as in PyTorch): the sorted distinct values (or slices along dim, or "
    "the first of each run of equal neighbours)",
    kind="internal",  # (reached by torch.unique / unique_consecutive on an input requiring grad)
    saves=False,
    jvp=_unique_jvp,
    signature="unique(x, dim=None), unique_consecutive(x, dim=None)",
    samples=(
        Sample(((5,),), fixed={0: np.array([2.5, -1.0, 2.5, 0.0, -1.0])}, hessian=False),
        Sample(
            ((3, 2),),
            {"dim": 0},
            fixed={0: np.array([[1.0, 2.0], [0.5, 2.0], [1.0, 2.0]])},
            hessian=False,
        ),
        Sample(
            ((6,),),
            {"consecutive": True},
            fixed={0: np.array([1.0, 1.0, 3.0, 1.0, 1.0, 2.0])},
            hessian=False,
        ),
        Sample(
            ((2, 4),),
            {"dim": 1, "consecutive": True},
            fixed={0: np.array([[1.0, 1.0, 2.0, 2.0], [0.0, 0.0, 5.0, 4.0]])},
            hessian=False,
        ),
    ),
    to_torch=_unique_torch,
    to_jax=lambda w, a, p: "None",
)


def _heaviside_fwd(x: np.ndarray, values: np.ndarray) -> np.ndarray:
    # values where x == 0, else 1 for x > 0 and 0 for x < 0 (and for nan), as PyTorch.
    step = (x > 0).astype(np.result_type(x, values))
    return np.where(x == 0, values, step)


heaviside = _undifferentiable(
    "heaviside",
    "heaviside",
    _heaviside_fwd,
    "not differentiable (as in PyTorch)",
    _fixed([-1.5, 0.0, 2.0, -0.0], 0.5) + _fixed([[0.0, 1.0], [-3.0, 0.0]], [0.25, 0.75]),
    to_torch="torch.heaviside",
    to_jax="jnp.heaviside",
)


# --- bincount with weights requiring grad: grad_fn NotImplemented, as PyTorch's


def bincount_values(w: np.ndarray, index: np.ndarray, minlength: int) -> np.ndarray:
    """The weights summed into the bins `index` names (float32 weights give float32 sums,
    others float64, summed in float64 as ATen's kernel does)."""
    out_dt = np.float32 if w.dtype == np.float32 else np.float64
    sums = np.bincount(index, weights=w.astype(np.float64), minlength=minlength)
    return sums.astype(out_dt)


bincount = _undifferentiable(
    "bincount",
    "bincount",
    lambda w, index, minlength: bincount_values(w, index, minlength),
    "not differentiable in the weights (as in PyTorch)",
    (
        Sample(
            ((4,),),
            {"index": np.array([0, 2, 2, 1]), "minlength": 4},
            fixed={0: np.array([0.5, -1.0, 2.25, 3.0])},
            hessian=False,
        ),
    ),
    to_torch=lambda w, a, p: (
        f"torch.bincount(torch.tensor({p['index'].tolist()}), weights={a[0]}, "
        f"minlength={p['minlength']})"
    ),
    to_jax=lambda w, a, p: "None",
)
