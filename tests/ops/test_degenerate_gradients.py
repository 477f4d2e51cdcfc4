"""Gradients at the edges of their formulas, found pasting public autograd snippets
(explore20): the determinant of a 1 x 1 matrix, exact float64 determinants and their
first-order gradient (ATen's LU solve, nudged at a singular matrix), var/std with no degrees
of freedom, and the sign of a zero from the float64 fused multiply-add."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import numpy as np
import pytest

from gradcli.core.fma64 import _fma64
from gradcli.lang.program import parse
from gradcli.ops import lapack32


def out(text: str) -> list[str]:
    return "".join(parse("import torch\n" + text, "t.py").run(dtype="float32").output).splitlines()


def _exact_det(m: list[list[int]]) -> Fraction:
    n = len(m)
    total = Fraction(0)
    for p in permutations(range(n)):
        sign = 1
        for i in range(n):
            for j in range(i + 1, n):
                if p[i] > p[j]:
                    sign = -sign
        term = Fraction(sign)
        for i in range(n):
            term *= m[i][p[i]]
        total += term
    return total


def test_det_of_a_one_by_one_matrix_passes_the_gradient_through_exactly() -> None:
    for v in ("0.0", "0.1", "-7.25", "1e-30"):
        got = out(
            f"a = torch.tensor([[{v}]], dtype=torch.float64, requires_grad=True)\n"
            "(3 * torch.det(a)).backward()\nprint(a.grad.item() == 3.0)\n"
        )
        assert got == ["True"], v
    # at any order: the gradient holds nothing of A (PyTorch's has no grad_fn)
    got = out(
        "a = torch.tensor([[0.1]], requires_grad=True)\n"
        "g, = torch.autograd.grad(torch.det(a), a, create_graph=True)\n"
        "print(g.item(), g.requires_grad)\n"
    )
    assert got == ["1.0 False"]


def test_float64_det_agrees_with_the_exact_determinant() -> None:
    # (an LU's divisions round: not always exact, as PyTorch's is not; the corpus checks
    # the bits against PyTorch, this the value)
    rng = np.random.default_rng(5)
    for n in range(1, 7):
        for _ in range(20):
            m = rng.integers(-4, 5, size=(n, n))
            got = float(lapack32.det64(m.astype(np.float64)))
            want = float(_exact_det(m.tolist()))
            assert abs(got - want) <= 1e-12 * max(1.0, abs(want)), (m, got, want)
    assert float(lapack32.det64(np.array([[2.0, 1.0], [1.0, 3.0]]))) == 5.0


def test_float64_det_gradient_is_the_cofactor_matrix() -> None:
    rng = np.random.default_rng(6)
    for _ in range(50):
        a = rng.integers(-5, 6, size=(2, 2)).astype(np.float64)
        d = lapack32.det64(a)
        if d == 0:
            continue
        cof = np.array([[a[1, 1], -a[1, 0]], [-a[0, 1], a[0, 0]]])
        np.testing.assert_allclose(lapack32.det_grad64(a, np.array(d)), cof, rtol=1e-14, atol=1e-14)
    got = lapack32.det_grad64(np.array([[2.0, 1.0], [1.0, 3.0]]), np.array(5.0))
    assert got.tolist() == [[3.0, -1.0], [-1.0, 2.0]]


def test_float64_det_gradient_matches_the_inverse_on_random_matrices() -> None:
    rng = np.random.default_rng(7)
    for n in (2, 3, 5, 8):
        a = rng.standard_normal((3, n, n))
        d = lapack32.det64(a)
        got = lapack32.det_grad64(a, d)
        want = d[:, None, None] * np.linalg.inv(a).swapaxes(-1, -2)
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(d, np.linalg.det(a), rtol=1e-12)


def test_det_gradient_at_a_singular_matrix_is_a_signed_zero() -> None:
    got = out(
        "A = torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64, requires_grad=True)\n"
        "torch.det(A).backward()\nprint(A.grad.tolist())\n"
    )
    assert got == ["[[0.0, -0.0], [-0.0, 0.0]]"]


@pytest.mark.parametrize(
    "call, det_path",
    [("x.var()", True), ("x.var(dim=0)", False), ("x.var(correction=2)", True),
     ("x.var(dim=0, correction=2)", False), ("x.var(correction=3)", True),
     ("x.var(dim=0, correction=3)", False)],
)  # fmt: skip
def test_var_without_degrees_of_freedom(call: str, det_path: bool) -> None:
    # PyTorch's var_backward: over the whole tensor with dof <= 0, inf (NaN where an element
    # equals the mean); along a dim, (2 / (n - correction)) * (x - mean) with 2 / 0 = +inf
    for vals in ("[1.0, 2.0]", "[5.0, 5.0]", "[4.0]"):
        got = out(
            f"x = torch.tensor({vals}, requires_grad=True)\n"
            f"v = {call}\nv.sum().backward()\nprint(x.grad.tolist())\n"
        )
        x = np.array(eval(vals))
        correction = int(call.split("correction=")[1][0]) if "correction" in call else 1
        dof = x.size - correction
        centered = x - x.mean()
        with np.errstate(all="ignore"):
            if det_path and dof <= 0:
                want = np.where(centered == 0, np.nan, np.inf)
            else:
                factor = np.inf if dof == 0 else 2 / dof
                want = factor * centered
        assert np.array_equal(
            np.array(eval(got[0].replace("nan", "np.nan").replace("inf", "np.inf"))),
            want,
            equal_nan=True,
        ), (call, vals, got)


def test_std_without_degrees_of_freedom_is_nan() -> None:
    got = out(
        "m = torch.tensor([[1.0, 2.0], [3.0, 5.0]], requires_grad=True)\n"
        "m.std(dim=1, correction=2).sum().backward()\nprint(m.grad.isnan().all().item())\n"
        "s = torch.tensor([3.0], requires_grad=True)\ns.std().backward()\n"
        "print(s.grad.isnan().all().item())\n"
    )
    assert got == ["True", "True"]


def test_fma64_keeps_the_sign_of_a_zero() -> None:
    cases = [
        (-0.5, 0.0, -0.0),
        (0.5, -0.0, -0.0),
        (2.0, 3.0, -6.0),
        (-0.0, 5.0, -0.0),
        (1.0, 0.0, 0.0),
    ]
    for a, b, c in cases:
        got = float(_fma64(a, b, c))
        want = a * b + c  # exact here (the product is exact): IEEE's signed zero
        assert got == want and np.signbit(got) == np.signbit(want), (a, b, c, got)
    rng = np.random.default_rng(8)
    a, b, c = rng.standard_normal((3, 200))
    got = _fma64(a, b, c)
    for x, y, z, g in zip(a, b, c, got, strict=True):
        assert g == float(Fraction(x) * Fraction(y) + Fraction(z))  # correctly rounded


def test_pow_of_two_tensors_second_derivatives_are_the_analytic_ones() -> None:
    got = out(
        "x = torch.tensor([0.7, 1.9, 3.2], dtype=torch.float64, requires_grad=True)\n"
        "y = torch.tensor([2.5, -0.4, 1.1], dtype=torch.float64, requires_grad=True)\n"
        "gx, gy = torch.autograd.grad((x ** y).sum(), (x, y), create_graph=True)\n"
        "hxx, hxy = torch.autograd.grad(gx.sum(), (x, y), retain_graph=True)\n"
        "hyx, hyy = torch.autograd.grad(gy.sum(), (x, y))\n"
        "for t in (gx, gy, hxx, hxy, hyx, hyy):\n    print(t.tolist())\n"
    )
    x, y = np.array([0.7, 1.9, 3.2]), np.array([2.5, -0.4, 1.1])
    want = [
        y * x ** (y - 1),
        x**y * np.log(x),
        y * (y - 1) * x ** (y - 2),
        x ** (y - 1) * (1 + y * np.log(x)),
        x ** (y - 1) * (1 + y * np.log(x)),
        x**y * np.log(x) ** 2,
    ]
    for line, w in zip(got, want, strict=True):
        np.testing.assert_allclose(np.array(eval(line)), w, rtol=1e-12)


def test_pow_at_a_zero_base_follows_pytorchs_where() -> None:
    # d/dy is 0 at x == 0 and y >= 0 (a where over x^y log x), so its derivative in y is
    # 0 * log(0) = NaN there; d/dx is 0 where y == 0
    got = out(
        "b = torch.tensor([0.0, 0.0], dtype=torch.float64, requires_grad=True)\n"
        "t = torch.tensor([0.0, 2.0], dtype=torch.float64, requires_grad=True)\n"
        "gb, gt = torch.autograd.grad((b ** t).sum(), (b, t), create_graph=True)\n"
        "print(gb.tolist(), gt.tolist())\n"
        "print(torch.autograd.grad(gt.sum(), t)[0].tolist())\n"
    )
    assert got == ["[0.0, 0.0] [0.0, 0.0]", "[nan, nan]"]


def test_embedding_padding_row_keeps_its_forward_tangent_not_its_gradient() -> None:
    got = out(
        "import torch.nn.functional as F\n"
        "w = torch.arange(6.0).reshape(3, 2)\n"
        "ids = torch.tensor([0, 2, 0])\n"
        "f = lambda w: F.embedding(ids, w, padding_idx=0)\n"
        "print(torch.func.jvp(f, (w,), (torch.ones(3, 2),))[1].tolist())\n"
        "print(torch.func.jacfwd(f)(w).sum(dim=(0, 1, 3)).tolist())\n"
        "print(torch.func.jacrev(f)(w).sum(dim=(0, 1, 3)).tolist())\n"
    )
    assert got == [
        "[[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]",
        "[4.0, 0.0, 2.0]",
        "[0.0, 0.0, 2.0]",
    ]


def _fd_prod_grad(x: list[float], h: float = 1e-6) -> list[float]:
    """Central finite differences of prod in float64."""
    base = np.array(x, dtype=np.float64)
    grads = []
    for i in range(len(x)):
        up, down = base.copy(), base.copy()
        up[i] += h
        down[i] -= h
        grads.append(float((np.prod(up) - np.prod(down)) / (2 * h)))
    return grads


def test_prod_of_two_zeros_has_a_positive_zero_gradient_whatever_the_incoming_one() -> None:
    # ATen's prod_backward (prod(), every dim, a backward that does not record) answers
    # zeros_like(input) when two or more values are 0: +0 beside negative values too, and
    # 0 (not NaN) for an infinite incoming gradient
    assert _fd_prod_grad([-2.0, 0.0, 0.0, -1.0]) == [0.0, 0.0, 0.0, 0.0]
    text = (
        "x = torch.tensor([-2., 0., 0., -1.], requires_grad=True)\n"
        "x.prod().backward()\nprint(x.grad)\n"
        "x.grad = None\n"
        "x.prod().backward(torch.tensor(float('inf')))\nprint(x.grad)\n"
        "m = torch.tensor([[-2., 0.], [0., -3.]], dtype=torch.float64, requires_grad=True)\n"
        "m.prod().backward()\nprint(m.grad)\n"
    )
    assert out(text) == [
        "tensor([0., 0., 0., 0.])",
        "tensor([0., 0., 0., 0.])",
        "tensor([[0., 0.],",
        "        [0., 0.]], dtype=torch.float64)",
    ]


def test_prod_zeros_keep_the_products_of_the_others_where_aten_builds_them() -> None:
    # one zero, prod(dim), a recording backward and torch.func: ATen builds the products
    # before and after each element (prod_safe_zeros_backward), signed zeros included
    assert _fd_prod_grad([-2.0, 0.0, 3.0]) == pytest.approx([0.0, -6.0, 0.0], abs=1e-9)
    text = (
        "y = torch.tensor([-2., 0., 3.], requires_grad=True)\n"
        "y.prod().backward()\nprint(y.grad)\n"
        "x = torch.tensor([-2., 0., 0., -1.], requires_grad=True)\n"
        "x.prod(0).backward()\nprint(x.grad)\n"
        "g, = torch.autograd.grad(x.prod(), x, create_graph=True)\nprint(g)\n"
        "print(torch.func.grad(lambda t: t.prod())(x.detach()))\n"
    )
    assert out(text) == [
        "tensor([ 0., -6., -0.])",
        "tensor([-0., 0., 0., -0.])",
        "tensor([-0., 0., 0., -0.], grad_fn=<ViewBackward0>)",
        "tensor([-0., 0., 0., -0.])",
    ]
