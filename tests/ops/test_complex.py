"""Complex tensors: every record that declares complex support (`Op.complex`) against central
finite differences on the real and imaginary parts, in complex128.

PyTorch's convention: for a real loss L, the gradient of a complex input z is
dL/d(re z) + i dL/d(im z). The loss here is L = sum(re(conj(G) * f(inputs))) for a random
complex G (sum(G * f) for a real f), which backward gives with `gradient=G`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gradcli.ops  # noqa: F401 - installs the Tensor arithmetic
from gradcli.core import autograd
from gradcli.core.op import REGISTRY
from gradcli.core.tensor import Tensor
from gradcli.ops import arithmetic as A
from gradcli.surface import basics as B
from gradcli.surface import composite as CO
from gradcli.surface import elementwise as EW
from gradcli.surface import extras as X
from gradcli.surface import fft as FT
from gradcli.surface import functional as F
from gradcli.surface import linalg as L
from gradcli.surface import scatter as SC
from gradcli.surface import statistics as ST

EPS = 1e-6
RTOL = 1e-6


def _loss(out: np.ndarray, G: np.ndarray) -> float:
    if out.dtype.kind == "c":
        return float(np.sum((np.conj(G) * out).real))
    return float(np.sum(G.real * out))


def _numeric(f: Callable[..., Tensor], arrays: list[np.ndarray], G: np.ndarray, k: int):
    base = arrays[k]
    grad = np.zeros(base.shape, dtype=base.dtype)
    units = (1.0, 1j) if base.dtype.kind == "c" else (1.0,)
    for idx in np.ndindex(base.shape):
        for u in units:
            vals = []
            for sign in (1, -1):
                moved = [a.copy() for a in arrays]
                moved[k][idx] += sign * EPS * u
                vals.append(_loss(f(*[Tensor(a) for a in moved]).data, G))
            grad[idx] += (vals[0] - vals[1]) / (2 * EPS) * u
    return grad


def _engine(f: Callable[..., Tensor], arrays: list[np.ndarray], G: np.ndarray):
    ts = [Tensor(a.copy(), requires_grad=True) for a in arrays]
    out = f(*ts)
    g = G if out.dtype.kind == "c" else G.real.astype(out.dtype)
    autograd.backward([out], [Tensor(g)])
    return out, [t.grad.data if t.grad is not None else None for t in ts]


def _rand(rng: np.random.Generator, shape: tuple, kind: str) -> np.ndarray:
    re = np.asarray(rng.uniform(0.3, 1.5, shape) * rng.choice([-1, 1], shape))
    if kind == "r":
        return re
    return np.asarray(re + 1j * rng.uniform(0.3, 1.5, shape) * rng.choice([-1, 1], shape))


def _double(z: Tensor, name: str) -> Tensor:
    # the gradient of a function, recorded, as a function of z (second order)
    if not z.requires_grad:  # (the finite differences' evaluations)
        z = Tensor(z.data, requires_grad=True)
    y = getattr(z, name)()
    (g,) = autograd.grad([y], [z], [Tensor(np.ones(y.shape, y.dtype))], create_graph=True)
    return g


def _tanh_grad(z: Tensor) -> Tensor:
    # the gradient of tanh, recorded (tanh_backward), as a function of z
    if not z.requires_grad:  # (the finite differences' evaluations)
        z = Tensor(z.data, requires_grad=True)
    y = z.tanh()
    (g,) = autograd.grad([y], [z], [Tensor(np.ones(y.shape, y.dtype))], create_graph=True)
    return g


def _mul_grad(z: Tensor) -> Tensor:
    # the gradient of z * z * conj(z) (mul's conjugate products), recorded, as a function of z
    if not z.requires_grad:  # (the finite differences' evaluations)
        z = Tensor(z.data, requires_grad=True)
    y = z * z * F.conj(z)
    (g,) = autograd.grad([y], [z], [Tensor(np.ones(y.shape, y.dtype))], create_graph=True)
    return g


def _matmul_grad(z: Tensor) -> Tensor:
    # the gradient of z @ z @ z (matmul's conjugate operands), recorded, as a function of z
    if not z.requires_grad:  # (the finite differences' evaluations)
        z = Tensor(z.data, requires_grad=True)
    y = z @ z @ z
    (g,) = autograd.grad([y], [z], [Tensor(np.ones(y.shape, y.dtype))], create_graph=True)
    return g


def _positive(a: Tensor) -> Tensor:
    """a a^H + 3 I: Hermitian positive-definite, a function of all of a (PyTorch's cholesky
    rule is the gradient of a function of a Hermitian matrix)."""
    n = a.shape[-1]
    return a @ F.mH(a) + Tensor(3 * np.eye(n, dtype=a.dtype))


def _eig_phase_free(a: Tensor) -> Tensor:
    """Of eig(a), what does not depend on the eigenvectors' phases: the eigenvalues and the
    squared magnitudes of the (unit) eigenvectors' entries."""
    w, v = L.linalg_eig(a)
    mag = F.real(v * F.conj(v)).to(np.dtype(np.complex128))
    return F.cat([w, mag.reshape(*mag.shape[:-2], -1)], -1)


def _svd_phase_free(a: Tensor) -> Tensor:
    """Of svd(a), what does not depend on the singular vectors' phases: the singular values,
    the outer products u_i v_i^H and the squared magnitudes of U's entries (complex)."""
    u, s, vh = L.svd(a, full_matrices=False)
    k = s.shape[-1]
    outer = u[..., :, :1] * vh[..., :1, :] + u[..., :, k - 1 :] * vh[..., k - 1 :, :] * 0.5
    mag = F.real(u * F.conj(u))
    parts = [s, outer.reshape(*outer.shape[:-2], -1), mag.reshape(*mag.shape[:-2], -1)]
    return F.cat([p.to(np.dtype(np.complex128)) for p in parts], -1)


def _eigh_phase_free(a: Tensor, uplo: str) -> Tensor:
    """What of eigh(a + a^H) does not depend on the eigenvectors' phases: the eigenvalues and
    the squared magnitudes of the eigenvectors' entries (a real function of a complex matrix;
    PyTorch's rule is the gradient of a function of a Hermitian matrix, whose perturbations
    are Hermitian too)."""
    w, v = L.eigh(a + F.mH(a), uplo)
    mag = F.real(v * F.conj(v))
    return F.cat([w, mag.reshape(*mag.shape[:-2], -1)], -1)


# (name, function, input kinds and shapes: "c" complex, "r" real)
CASES: list[tuple[str, Callable[..., Any], list[tuple[str, tuple]]]] = [
    ("exp", lambda z: z.exp(), [("c", (3,))]),
    ("log", lambda z: z.log(), [("c", (2, 2))]),
    ("sqrt", lambda z: z.sqrt(), [("c", (3,))]),
    ("sin", lambda z: z.sin(), [("c", (3,))]),
    ("cos", lambda z: z.cos(), [("c", (3,))]),
    ("tanh", lambda z: z.tanh(), [("c", (3,))]),
    ("neg", lambda z: -z, [("c", (3,))]),
    ("reciprocal", lambda z: 2.0 / z, [("c", (3,))]),
    ("square", lambda z: z**2, [("c", (3,))]),
    ("cube", lambda z: z**3, [("c", (2,))]),
    ("abs", lambda z: z.abs(), [("c", (3,))]),
    ("angle", lambda z: F.angle(z), [("c", (3,))]),
    ("real", lambda z: F.real(z), [("c", (2, 2))]),
    ("imag", lambda z: F.imag(z), [("c", (2, 2))]),
    ("conj", lambda z: F.conj(z), [("c", (3,))]),
    ("add", lambda z, w: z + w, [("c", (2, 3)), ("c", (3,))]),
    ("sub", lambda z, w: z - w, [("c", (2, 3)), ("c", (2, 3))]),
    ("mul", lambda z, w: z * w, [("c", (2, 3)), ("c", (1, 3))]),
    ("div", lambda z, w: z / w, [("c", (3,)), ("c", (3,))]),
    ("mul_real", lambda z, x: z * x, [("c", (3,)), ("r", (3,))]),
    ("div_real", lambda x, z: x / z, [("r", (2, 3)), ("c", (3,))]),
    ("add_real", lambda x, z: x + z, [("r", ()), ("c", (3,))]),
    ("times_j", lambda x: x * 1j, [("r", (3,))]),
    ("sum", lambda z: z.sum(0), [("c", (2, 3))]),
    ("mean", lambda z: F.mean(z), [("c", (2, 3))]),
    ("matmul", lambda a, b: a @ b, [("c", (2, 3)), ("c", (3, 2))]),
    ("mv", lambda a, b: a @ b, [("c", (2, 3)), ("c", (3,))]),
    ("dot", lambda a, b: a @ b, [("c", (3,)), ("c", (3,))]),
    ("matmul_real", lambda a, b: a @ b.to(np.dtype(np.complex128)), [("c", (2, 3)), ("r", (3,))]),
    ("vecmat", lambda a, b: a @ b, [("c", (3,)), ("c", (3, 2))]),
    ("bmm_folded", lambda a, b: a @ b, [("c", (2, 2, 3)), ("c", (3, 2))]),
    ("matmul_batched", lambda a, b: a @ b, [("c", (2, 3)), ("c", (2, 3, 2))]),
    ("real_matmul", lambda x, b: x.to(np.dtype(np.complex128)) @ b, [("r", (2, 3)), ("c", (3,))]),
    ("mul_double", lambda z: _mul_grad(z), [("c", (3,))]),
    ("matmul_double", lambda z: _matmul_grad(z), [("c", (2, 2))]),
    ("transpose", lambda a: F.mT(a) * a.sum(), [("c", (2, 3))]),
    ("H", lambda a: F.H(a) @ a, [("c", (2, 3))]),
    ("index", lambda a: a[1] * a[0, 2], [("c", (2, 3))]),
    ("reshape", lambda a: a.reshape(3, 2).exp(), [("c", (2, 3))]),
    ("clone", lambda a: F.clone(a).exp() * a, [("c", (2, 3))]),
    ("cat", lambda a, b: F.cat([a, b]).exp(), [("c", (2,)), ("c", (3,))]),
    ("stack", lambda a, b: F.stack([a, b], 1) * a[0], [("c", (2,)), ("c", (2,))]),
    ("expand", lambda a: F.expand(a, 3, 2) * a, [("c", (2,))]),
    ("tanh_double", lambda z: _tanh_grad(z), [("c", (3,))]),
    ("complex", lambda x, y: F.complex(x, y).exp(), [("r", (3,)), ("r", (3,))]),
    ("polar", lambda r, t: F.polar(r, t), [("r", (3,)), ("r", (3,))]),
    ("view_as_real", lambda z: F.view_as_real(z.exp()), [("c", (2,))]),
    ("view_as_complex", lambda x: F.view_as_complex(x).log(), [("r", (3, 2))]),
    ("sgn", lambda z: EW.sgn(z), [("c", (3,))]),
    ("cumsum", lambda z: ST.cumsum(z * z, 1), [("c", (2, 3))]),
    ("cumprod", lambda z: ST.cumprod(z, 1), [("c", (2, 3))]),
    (
        "cumprod_zero",
        lambda z: ST.cumprod(z * F.where(Tensor(np.array([True, False, True])), z, 0), 0),
        [("c", (3,))],
    ),
    (
        "where",
        lambda z, w: F.where(Tensor(np.array([True, False, True])), z * z, w),
        [("c", (3,)), ("c", (2, 3))],
    ),
    *[
        (n, lambda z, n=n: getattr(z, n)(), [("c", (3,))])
        for n in "tan sinh cosh sigmoid log2 log10 rsqrt expm1 log1p asin acos atan".split()
    ],
    ("sigmoid_double", lambda z: _double(z, "sigmoid"), [("c", (3,))]),
    ("norm", lambda z: F.norm(z), [("c", (2, 3))]),
    ("vector_norm_1", lambda z: L.vector_norm(z, 1), [("c", (4,))]),
    ("chain", lambda z: (z.exp() * F.conj(z)).abs().log() + F.angle(z.sin()), [("c", (3,))]),
    ("inv", lambda a: L.inv(a), [("c", (2, 2))]),
    ("det", lambda a: L.det(a), [("c", (2, 3, 3))]),
    ("solve", lambda a, b: L.solve(a, b), [("c", (3, 3)), ("c", (3, 2))]),
    ("solve_right", lambda a, b: L.solve(a, b, left=False), [("c", (2, 2)), ("c", (3, 2))]),
    ("svdvals_wide", lambda a: L.svdvals(a), [("c", (2, 3))]),
    ("svdvals_tall", lambda a: L.svdvals(a), [("c", (2, 3, 2))]),
    ("pow", lambda z, w: z**w, [("c", (3,)), ("c", (3,))]),
    ("pow_real_base", lambda x, w: x.to(np.dtype(np.complex128)) ** w, [("r", (2,)), ("c", (2,))]),
    ("rpow", lambda z: 2.5**z, [("c", (3,))]),
    ("pow_complex_number", lambda x: x ** (1.5 - 0.5j), [("r", (3,))]),
    ("vdot", lambda z, w: B.vdot(z, w), [("c", (3,)), ("c", (3,))]),
    ("matrix_norm_nuc", lambda a: L.matrix_norm(a, "nuc") + L.matrix_norm(a, 1), [("c", (2, 2))]),
    ("matrix_exp", lambda a: X.matrix_exp(a * 0.3), [("c", (3, 3))]),
    ("eigh", lambda a: _eigh_phase_free(a, "L"), [("c", (3, 3))]),
    ("cholesky", lambda a: L.cholesky(_positive(a)), [("c", (3, 3))]),
    ("slogdet_sign", lambda a: L.slogdet(a)[0], [("c", (2, 3, 3))]),
    ("svd", lambda a: _svd_phase_free(a), [("c", (3, 3))]),
    ("pinv_tall", lambda a: L.pinv(a), [("c", (3, 2))]),
    ("qr_q", lambda a: L.qr(a)[0], [("c", (3, 2))]),
    ("eig", lambda a: _eig_phase_free(a), [("c", (3, 3))]),
    ("eigvals", lambda a: L.eigvals(a), [("c", (2, 2, 2))]),
    ("qr_r", lambda a: L.qr(a)[1], [("c", (2, 3, 3))]),
    ("qr_wide", lambda a: F.cat([p.reshape(-1) for p in L.qr(a)]), [("c", (2, 3))]),
    ("pinv_wide", lambda a: L.pinv(a), [("c", (2, 2, 3))]),
    ("lstsq", lambda a, b: X.lstsq(a, b)[0], [("c", (3, 2)), ("c", (3, 1))]),
    ("svd_tall", lambda a: _svd_phase_free(a), [("c", (4, 2))]),
    ("svd_wide", lambda a: _svd_phase_free(a), [("c", (2, 2, 3))]),
    ("slogdet_logabsdet", lambda a: L.slogdet(a)[1], [("c", (3, 3))]),
    ("logdet", lambda a: L.logdet(a), [("c", (2, 2))]),
    ("cholesky_upper", lambda a: L.cholesky(_positive(a), upper=True), [("c", (2, 2, 2))]),
    ("eigh_upper", lambda a: _eigh_phase_free(a, "U"), [("c", (2, 3, 3))]),
    ("matrix_exp_scaled", lambda a: X.matrix_exp(a * 2), [("c", (2, 2, 2))]),
    ("householder_product", lambda a, t: L.householder_product(a, t), [("c", (3, 2)), ("c", (2,))]),
    (
        "cholesky_solve",
        lambda b, m: X.cholesky_solve(b, CO.tril(m)),
        [("c", (2, 2)), ("c", (2, 2))],
    ),
    # (of the triangle only: PyTorch's rule differentiates (F F^H)^-1 in every entry of F)
    ("cholesky_inverse", lambda m: L.cholesky_inverse(CO.tril(m) + _boost(m)), [("c", (3, 3))]),
    (
        "cholesky_inverse_upper",
        lambda m: L.cholesky_inverse(CO.triu(m) + _boost(m), upper=True),
        [("c", (2, 2, 2))],
    ),
    # the records that move values (scatter, scatter_add, zero_region of an item assignment)
    ("index_copy", lambda a, b: SC.index_copy(a, 0, _IDX, b) * a, [("c", (3, 2)), ("c", (2, 2))]),
    (
        "index_add",
        lambda a, b: SC.index_add(a, 1, _IDX, b, alpha=2) * a,
        [("c", (2, 3)), ("c", (2, 2))],
    ),
    ("index_put", lambda a, b: SC.index_put(a, (_IDX,), b) * a, [("c", (3,)), ("c", (2,))]),
    (
        "masked_fill",
        lambda a: SC.masked_fill(a, Tensor(np.array([True, False])), 2j) * a,
        [("c", (2,))],
    ),
    ("lerp", lambda a, b: B.lerp(a, b, 0.3) * a, [("c", (3,)), ("c", (3,))]),
    ("eigvals_of_real", lambda a: L.eigvals(a), [("r", (2, 3, 3))]),
    # torch.fft: the three transforms, through the functions made of them (cut, padded,
    # conjugated, normalized)
    ("fft_c2c", lambda z: FT.fft(z) * z, [("c", (5,))]),
    ("ifft_c2c_padded", lambda z: FT.ifft(z, n=6, norm="ortho"), [("c", (4,))]),
    ("fftn_c2c", lambda z: FT.fftn(z, s=(2, 2), norm="forward"), [("c", (2, 3))]),
    ("fft_r2c_full", lambda x: FT.fft(x), [("r", (5,))]),
    ("rfft_r2c", lambda x: FT.rfft(x), [("r", (6,))]),
    ("ihfft_r2c", lambda x: FT.ihfft(x, norm="forward"), [("r", (5,))]),
    ("rfftn_r2c", lambda x: FT.rfftn(x, norm="ortho"), [("r", (3, 4))]),
    ("irfft_c2r", lambda z: FT.irfft(z), [("c", (4,))]),
    ("irfft_c2r_odd", lambda z: FT.irfft(z, n=5, norm="ortho"), [("c", (3,))]),
    ("hfft_c2r", lambda z: FT.hfft(z, norm="forward"), [("c", (3,))]),
    ("irfftn_c2r", lambda z: FT.irfftn(z), [("c", (2, 3))]),
    ("hfft2_c2r", lambda z: FT.hfft2(z), [("c", (2, 3))]),
    ("ihfft2_r2c", lambda x: FT.ihfft2(x), [("r", (3, 4))]),
    # LU (zgetrf's pivots fixed by the values; PyTorch's rules with conjugate transposes)
    ("lu", lambda a: _lu_parts(L.linalg_lu(a)), [("c", (3, 3))]),
    ("lu_wide", lambda a: _lu_parts(L.linalg_lu(a)), [("c", (2, 2, 3))]),
    ("lu_tall", lambda a: _lu_parts(L.linalg_lu(a)), [("c", (3, 2))]),
    ("lu_factor", lambda a: L.lu_factor(a)[0], [("c", (2, 3, 3))]),
    ("lu_solve", lambda m, b: _lu_solved(m, b, True, False), [("c", (3, 3)), ("c", (3, 2))]),
    ("lu_solve_adj", lambda m, b: _lu_solved(m, b, True, True), [("c", (3, 3)), ("c", (3, 1))]),
    ("lu_solve_right", lambda m, b: _lu_solved(m, b, False, False), [("c", (3, 3)), ("c", (2, 3))]),
    (
        "lu_solve_right_adj",
        lambda m, b: _lu_solved(m, b, False, True),
        [("c", (3, 3)), ("c", (2, 3))],
    ),
    (
        "solve_triangular",
        lambda m, b: L.solve_triangular(m + _boost(m), b, upper=True),
        [("c", (3, 3)), ("c", (3, 2))],
    ),
]


def _boost(m: Tensor) -> Tensor:
    return Tensor(3 * np.eye(m.shape[-1], dtype=m.dtype))


def _lu_parts(plu: Any) -> Tensor:
    return F.cat([plu[1].reshape(-1), plu[2].reshape(-1)])


_PIVOTS = Tensor(np.array([2, 3, 3], dtype=np.int32))


def _lu_solved(m: Tensor, b: Tensor, left: bool, adjoint: bool) -> Tensor:
    """lu_solve with packed factors m + 3I (its U well away from singular) and fixed pivots."""
    return L.linalg_lu_solve(m + _boost(m), _PIVOTS, b, left=left, adjoint=adjoint)


_IDX = Tensor(np.array([2, 0]))


@pytest.mark.parametrize("name, f, spec", CASES, ids=[c[0] for c in CASES])
def test_gradient_is_the_conjugate_wirtinger_derivative(name: str, f: Any, spec: Any) -> None:
    rng = np.random.default_rng(sum(map(ord, name)))
    arrays = [_rand(rng, shape, kind) for kind, shape in spec]
    out = f(*[Tensor(a) for a in arrays])
    G = _rand(rng, out.shape, "c" if out.dtype.kind == "c" else "r")
    out, got = _engine(f, arrays, G)
    for k, a in enumerate(arrays):
        want = _numeric(f, arrays, G, k)
        assert got[k] is not None and got[k].dtype == a.dtype, (k, got[k])
        err = np.max(np.abs(got[k] - want)) / max(1.0, np.max(np.abs(want)))
        assert err <= RTOL, (name, k, got[k], want)


def test_second_order_through_complex_values() -> None:
    """create_graph: the gradient of a complex computation is differentiable again (the
    conjugations of the rules are recorded)."""

    def first(x: Tensor) -> Tensor:
        z = F.complex(x, x * x)
        loss = (z.exp() * F.conj(z)).abs().sum()
        (gx,) = autograd.grad([loss], [x], create_graph=True)
        return (gx * gx).sum()

    x0 = np.array([0.3, -0.7, 1.1])
    x = Tensor(x0.copy(), requires_grad=True)
    (g2,) = autograd.grad([first(x)], [x])
    want = np.zeros(3)
    for i in range(3):
        vals = []
        for s in (1, -1):
            moved = x0.copy()
            moved[i] += s * 1e-5
            with_x = Tensor(moved, requires_grad=True)
            vals.append(float(first(with_x).data))
        want[i] = (vals[0] - vals[1]) / 2e-5
    assert np.allclose(g2.data, want, rtol=1e-6, atol=1e-8)


def test_every_complex_record_is_checked_here() -> None:
    declared = {n for n, op in REGISTRY.items() if op.complex is not None}
    checked = {
        "exp", "log", "sqrt", "sin", "cos", "tanh", "tanh_backward", "neg", "reciprocal",
        "pow_scalar", "abs", "angle", "real", "imag", "conj", "add", "sub", "mul", "div", "sum",
        "mean", "matmul", "permute", "index", "reshape", "clone", "expand", "complex",
        "view_as_real", "view_as_complex", "astype", "cat", "stack", "index_put", "tan", "sinh",
        "cosh", "sigmoid", "sigmoid_backward", "log2", "log10", "rsqrt", "expm1", "log1p", "asin",
        "acos", "atan", "where", "cumsum", "cumprod", "inv", "det", "solve", "svdvals", "pow",
        "matrix_exp", "eigh", "cholesky", "slogdet", "svd", "pinv", "qr", "eig",
        "scatter", "scatter_add", "zero_region",
        "fft_c2c", "fft_r2c", "fft_c2r",
        "geqrf",  # (no gradient, as PyTorch's: its values in the corpus, 1821)
        "lu", "lu_factor", "lu_solve", "solve_triangular", "cholesky_inverse",
    }  # fmt: skip
    assert declared <= checked, declared - checked


def test_a_record_without_complex_rules_refuses_complex_inputs() -> None:
    from gradcli.base.errors import NotSupported

    z = Tensor(np.array([1 + 2j]))
    with pytest.raises(NotSupported, match="complex tensors are not supported by erf yet"):
        A.unary(REGISTRY["erf"])(z)


def test_an_imaginary_part_that_cancels_is_positive_zero_as_pytorchs() -> None:
    """mul's and matmul's rules multiply by the conjugate operand, as PyTorch's do
    (grad * other.conj(), grad @ other.mH, grad.outer(vec.conj())): a zero imaginary part of
    the gradient that cancels exactly is +0, as PyTorch prints it (2.+0.j), where the
    engine's conj(rule(conj(g))) gave -0 (2.-0.j). Values of PyTorch 2.13, checked by hand."""
    g = Tensor(np.array([1 + 1j, 1 + 1j]))

    def grads(f: Callable[..., Tensor], a: np.ndarray, b: np.ndarray, gout: Tensor) -> list:
        ta, tb = Tensor(a, requires_grad=True), Tensor(b, requires_grad=True)
        autograd.backward([f(ta, tb)], [gout])
        return [ta.grad.data, tb.grad.data]

    # (2+0j) with the conjugate of (1+1j) times (1+1j): 2 + (1 - 1)i
    ga, gb = grads(lambda a, b: a * b, np.array([2 + 0j, 1 + 1j]), np.array([1 + 1j, 1 - 1j]), g)
    assert ga.tolist() == [2 + 0j, 0 + 2j] and np.signbit(ga.imag).tolist() == [False, False]
    assert gb.tolist() == [2 + 2j, 2 + 0j] and not np.signbit(gb.imag[1])
    m = np.array([[1 + 1j, 2 + 0j], [3 + 0j, 1 - 1j]])
    v = np.array([1 + 1j, 1 + 1j])
    gm, gv = grads(lambda a, b: a @ b, m, v, g)
    assert gm.tolist() == [[2 + 0j] * 2] * 2 and not np.signbit(gm.imag).any()
    assert gv.tolist() == [5 + 3j, 2 + 4j]
    (gd,) = grads(lambda a, b: a @ b, v, v, Tensor(np.array(1 + 1j)))[:1]
    assert gd.tolist() == [2 + 0j] * 2 and not np.signbit(gd.imag).any()


def test_a_real_operand_of_a_complex_product_is_its_own_conjugate() -> None:
    """`z * w` with w real (a number, a real tensor, one that requires grad): PyTorch's mul
    saves w real, whose conj is itself, and multiplies the gradient by it promoted (c + 0i);
    gradcli converts w to complex for the product, and conjugating that would make the
    gradient's zero imaginary parts the other sign. Values of PyTorch 2.13 (by hand)."""
    from gradcli.ops import arithmetic as AR

    g = Tensor(np.array([-1 + 0j, 1 + 0j], dtype=np.complex64))
    want = [[2.0, -0.0], [-2.0, 0.0]]  # (re, im) of the gradient of z
    for other in (-2, -2.0, np.array([-2.0, -2.0], np.float32), "grad"):
        z = Tensor(np.array([2 + 0j, -3 + 0j], np.complex64), requires_grad=True)
        if isinstance(other, str):
            w: Any = Tensor(np.array([-2.0, -2.0], np.float32), requires_grad=True)
        else:
            w = Tensor(other) if isinstance(other, np.ndarray) else other
        autograd.backward([AR.mul_t(z, w)], [g])
        got = np.stack([z.grad.data.real, z.grad.data.imag], 1)
        assert got.tolist() == want and np.signbit(got).tolist() == np.signbit(want).tolist()
    # a complex operand is conjugated: (1 + 0i) * conj(-2 + 0i) = -2 + 0i, and -1 + 0i gives
    # 2 - 0i... as PyTorch's grad * other.conj()
    z = Tensor(np.array([2 + 0j, -3 + 0j], np.complex64), requires_grad=True)
    c = Tensor(np.array([-2 + 0j, -2 + 0j], np.complex64))
    autograd.backward([AR.mul_t(z, c)], [g])
    assert np.signbit(z.grad.data.imag).tolist() == [False, True]


def test_zeros_a_shape_rule_fills_are_positive_as_pytorchs() -> None:
    """x[i], x[:, 0] and the diagonal of a complex tensor: the gradient's other entries are
    +0 + 0j, as PyTorch's index backward fills them (the engine's conjugates around a real
    rule made them 0 - 0j). Values of PyTorch 2.13: tensor([0.-1.j, 0.+0.j, 0.+0.j])."""
    z = Tensor(np.array([1 + 1j, 2, 3j]), requires_grad=True)
    autograd.backward([z[0]], [Tensor(np.array(-1j))])
    assert z.grad.data.tolist() == [-1j, 0j, 0j]
    assert not np.signbit(z.grad.data.imag[1:]).any()
    w = Tensor(np.array([[1 + 1j, 2], [3j, 4 - 1j]]), requires_grad=True)
    autograd.backward([CO.diagonal(w)], [Tensor(np.array([1j, 2]))])
    assert w.grad.data.tolist() == [[1j, 0j], [0j, 2 + 0j]]
    assert not np.signbit(w.grad.data.imag).any()


def test_eig_values_are_lapacks_convention() -> None:
    """eig's record against its definition (tests/ops/test_ops.py's reference): each
    eigenvector the null vector of A - l I with unit norm and its largest component real."""
    from gradcli.ops import REGISTRY as OPS
    from tests.ops.test_ops import _eig_ref

    rng = np.random.default_rng(11)
    mats = [OPS["eig"].samples[0].fixed[0]] + [_rand(rng, (n, n), "c") for n in (2, 3, 5)]
    for a in mats:
        got = OPS["eig"].forward(a)
        assert np.allclose(got, _eig_ref(a), atol=1e-10), a
