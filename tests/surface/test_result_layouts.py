"""The memory layout of ops' results on transposed and permuted inputs, as PyTorch 2.13 lays
them out: flip, sort (values and indices) and rand_like keep the input's order of strides
(ATen writes them into empty_like(input)); masked_fill, tril/triu and cummax are row-major
whatever the input. The strides decide `.stride()`, `.is_contiguous()`, whether `.view()`
is allowed and the order in which a later in-place draw fills the tensor.

The expected strides were printed by PyTorch 2.13 for the same programs."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core.tensor import Settings
from gradcli.lang.program import parse


@pytest.fixture(autouse=True)
def _settings_restored():
    saved = (Settings.default_dtype, Settings.draw_dtype, Settings.seed)
    yield
    Settings.default_dtype, Settings.draw_dtype, Settings.seed = saved


def _printed(body: str) -> str:
    src = "import torch\ntorch.manual_seed(0)\n" + body
    return "".join(parse(src, "layouts.py").run(dtype="float32").output).strip()


# (expression of y = x.t() with x 3x4, and of z = a (2, 3, 4) tensor permuted to (4, 2, 3)),
# PyTorch's strides of each
CASES = [
    ("a.flip(0)", (1, 4), (1, 12, 4)),
    ("torch.flip(a, [0, 1])", (1, 4), (1, 12, 4)),
    ("a.sort(dim=0)[0]", (1, 4), (1, 12, 4)),
    ("a.sort(dim=0)[1]", (1, 4), (1, 12, 4)),
    ("a.argsort(dim=-1)", (1, 4), (1, 12, 4)),
    ("a.topk(2, dim=0)[0]", (3, 1), (6, 3, 1)),
    ("torch.rand_like(a)", (1, 4), (1, 12, 4)),
    ("torch.randn_like(a)", (1, 4), (1, 12, 4)),
    ("a.masked_fill(a > 2, 0.)", (3, 1), (6, 3, 1)),
    ("a.tril()", (3, 1), (6, 3, 1)),
    ("a.cummax(0)[0]", (3, 1), (6, 3, 1)),
    ("a.cummax(0)[1]", (3, 1), (6, 3, 1)),
    ("a * 2", (1, 4), (1, 12, 4)),
]


@pytest.mark.parametrize(("expr", "two", "three"), CASES, ids=[c[0] for c in CASES])
def test_strides_are_pytorchs(expr: str, two: tuple, three: tuple) -> None:
    body = (
        "y = torch.arange(12.).reshape(3, 4).t()\n"
        "z = torch.arange(24.).reshape(2, 3, 4).permute(2, 0, 1)\n"
        f"a = y\nprint(({expr}).stride())\na = z\nprint(({expr}).stride())\n"
    )
    assert _printed(body).splitlines() == [str(two), str(three)]


def test_view_after_flip_of_a_transpose_is_refused_as_pytorch_refuses_it() -> None:
    out = _printed(
        "y = torch.arange(12.).reshape(3, 4).t().flip(0)\n"
        "try:\n    y.view(-1)\nexcept RuntimeError as e:\n    print(e)\n"
    )
    assert out.startswith("view size is not compatible with input tensor's size and stride")


def test_values_and_gradients_do_not_depend_on_the_layout() -> None:
    """The same values as a row-major computation, and the gradient of flip and sort through
    a transpose is central finite differences' (float64)."""
    rng = np.random.default_rng(5)
    w = rng.standard_normal((3, 4))
    c = rng.standard_normal((4, 3))
    rows = ", ".join("[" + ", ".join(repr(float(v)) for v in r) + "]" for r in w)
    crow = ", ".join("[" + ", ".join(repr(float(v)) for v in r) + "]" for r in c)
    out = _printed(
        f"w = torch.tensor([{rows}], dtype=torch.float64, requires_grad=True)\n"
        f"c = torch.tensor([{crow}], dtype=torch.float64)\n"
        "v = torch.sort(w.t().flip(0), dim=1)[0]\n"
        "(v * c).sum().backward()\n"
        "print(w.grad.tolist())\nprint(v.tolist())\n"
    )
    grad_line, values_line = out.splitlines()

    def f(m: np.ndarray) -> float:
        return float((np.sort(m.T[::-1], axis=1) * c).sum())

    fd = np.zeros_like(w)
    for i in np.ndindex(w.shape):
        e = np.zeros_like(w)
        e[i] = 1e-6
        fd[i] = (f(w + e) - f(w - e)) / 2e-6
    np.testing.assert_allclose(np.array(eval(grad_line)), fd, rtol=1e-7, atol=1e-8)
    assert np.array(eval(values_line)).tolist() == np.sort(w.T[::-1], axis=1).tolist()


# --- elementwise results of several inputs (ATen's TensorIterator) ----------------------------
# Each setup makes `a` and `b` of some layout (transposed, permuted, expanded, with gaps, with
# dimensions of size 1); PyTorch 2.13 printed these strides for each expression.
SETUPS = {
    "t": "c = torch.arange(9.).reshape(3, 3)\na = c.t()\nb = c",
    "perm3": "a = torch.arange(24.).reshape(2, 3, 4).permute(2, 0, 1)\n"
    "b = torch.arange(24.).reshape(4, 2, 3)",
    "exp": "a = torch.arange(2.).reshape(1, 2, 1).permute(1, 2, 0).expand(2, 2, 1)\n"
    "b = torch.arange(4.).reshape(2, 2, 1)",
    "col": "a = torch.arange(12.).reshape(4, 3).t()\nb = torch.arange(3.).reshape(3, 1)",
    "gap": "a = torch.arange(48.).reshape(6, 2, 4)[::2].permute(1, 0, 2)\n"
    "b = torch.arange(12.).reshape(3, 4)",
    "one": "a = torch.arange(6.).reshape(1, 6)[:, ::2].permute(1, 0)\n"
    "b = torch.arange(3.).reshape(3, 1)",
    "bc": "a = torch.arange(3.).reshape(1, 3, 1).expand(1, 3, 3)\n"
    "b = torch.arange(18.).reshape(2, 3, 3).permute(0, 2, 1)",
}
EXPRS = [
    "a + b",
    "b + a",
    "a * b",
    "a > b",
    "torch.where(a > 2, a, b)",
    "torch.maximum(b, a)",
    "torch.addcmul(b, a, b, value=2)",
    "torch.add(a, b, alpha=2)",
    "torch.lerp(a, b, 0.5)",
    "a.exp()",
    "a * 2",
    "2 - a",
    "2 ** a",
    "a.double() + b",
    "a + b.double()",
    "torch.logical_and(a > 1, b > 1)",
    "~(a > 1)",
    "a.isnan()",
    "torch.isclose(a, b)",
    "a.clone()",
    "a.contiguous()",
    "torch.zeros_like(a)",
    "a.masked_fill(a > 2, 0.)",
    "torch.clamp(a, min=b)",
    "a.long() & 3",
]
_13, _31, _12_4, _631, _211, _124 = (1, 3), (3, 1), (1, 12, 4), (6, 3, 1), (2, 1, 1), (1, 2, 4)
_481, _1241, _913, _931, _11 = (4, 8, 1), (12, 4, 1), (9, 1, 3), (9, 3, 1), (1, 1)
PYTORCH = {
    "t": [_13, _31, _13, _13, _13, _31, _31, _13, _13, _13, _13, _13, _31]
    + [_13] * 7
    + [_31, _13, _31, _13, _13],
    "perm3": [_12_4, _631, _12_4, _12_4, _12_4, _631, _631, _12_4, _12_4, _12_4, _12_4, _12_4]
    + [_631]
    + [_12_4] * 7
    + [_631, _12_4, _631, _12_4, _12_4],
    "exp": [_211, _211, _211, _211, _124, _211, _211, _211, _211, _124, _124, _124, _211]
    + [_124] * 5
    + [_211, _124, _211, _124, _211, _211, _124],
    "col": [_13] * 12 + [(4, 1)] + [_13] * 7 + [(4, 1), _13, (4, 1), _13, _13],
    "gap": [_481] * 12 + [_1241] + [_481] * 7 + [_1241, _481, _1241, _481, _481],
    "one": [_13] * 12 + [_11] * 5 + [_13] * 3 + [_11, _13, _11, _13, _13],
    "bc": [_913] * 4 + [_931] + [_913] * 4 + [_931] * 9 + [_913] + [_931] * 4 + [_913, _931],
}


@pytest.mark.parametrize("setup", list(SETUPS))
def test_elementwise_results_are_laid_out_as_pytorchs(setup: str) -> None:
    body = SETUPS[setup] + "\n" + "".join(f"print(({e}).stride())\n" for e in EXPRS)
    got = _printed(body).splitlines()
    want = [str(s) for s in PYTORCH[setup]]
    wrong = [(e, g, w) for e, g, w in zip(EXPRS, got, want) if g != w]
    assert not wrong and len(got) == len(want)


def test_the_layouts_are_not_numpys() -> None:
    """The recorded strides are not what NumPy's own order="K" gives (the test could not pass
    by leaving the layout to NumPy): `c.t() + c` is NumPy's row-major, PyTorch's column-major."""
    c = np.arange(9.0).reshape(3, 3)
    assert tuple(s // 8 for s in (c.T + c).strides) == (3, 1) != PYTORCH["t"][0]


def test_undecided_comparisons_pass_on() -> None:
    """TensorIterator's sort goes on past a comparison no input decides (a broadcast
    dimension): an insertion sort that stops there gives row-major for the expanded input
    of the "exp" setup, where PyTorch's is (1, 2, 4)."""
    from gradcli.core.layout import iterator_strides

    shape, strides = (2, 2, 1), (1, 0, 2)
    assert iterator_strides(shape, [(shape, strides)]) == (1, 2, 4)
    # the same sort stopping at the first undecided comparison: row-major
    perm = [2, 1, 0]
    for i in range(1, 3):
        for k in range(i - 1, -1, -1):
            s0, s1 = strides[perm[k]], strides[perm[k + 1]]
            if s0 == 0 or s1 == 0 or s0 <= s1:
                break
            perm[k], perm[k + 1] = perm[k + 1], perm[k]
    assert perm == [2, 1, 0]


def test_values_and_gradients_of_relaid_results() -> None:
    """Laid out differently, the values are a row-major computation's, and the gradient through
    a transposed product, sum and where is central finite differences' (float64)."""
    rng = np.random.default_rng(7)
    w = rng.standard_normal((3, 3))
    c = rng.standard_normal((3, 3))
    rows = ", ".join("[" + ", ".join(repr(float(v)) for v in r) + "]" for r in w)
    crow = ", ".join("[" + ", ".join(repr(float(v)) for v in r) + "]" for r in c)
    out = _printed(
        f"w = torch.tensor([{rows}], dtype=torch.float64, requires_grad=True)\n"
        f"c = torch.tensor([{crow}], dtype=torch.float64)\n"
        "v = torch.where(w.t() > 0, w.t() * w, torch.add(w.t(), w, alpha=3))\n"
        "print(v.stride())\n"
        "(v.t().view(-1) * c.reshape(-1)).sum().backward()\n"
        "print(w.grad.tolist())\nprint(v.tolist())\n"
    )
    stride_line, grad_line, values_line = out.splitlines()
    assert stride_line == "(1, 3)"  # (so v.t() is contiguous: its view(-1) runs, as PyTorch's)

    def value(m: np.ndarray) -> np.ndarray:
        return np.where(m.T > 0, m.T * m, m.T + 3 * m)

    def f(m: np.ndarray) -> float:
        return float((value(m).T.reshape(-1) * c.reshape(-1)).sum())

    fd = np.zeros_like(w)
    for i in np.ndindex(w.shape):
        e = np.zeros_like(w)
        e[i] = 1e-6
        fd[i] = (f(w + e) - f(w - e)) / 2e-6
    np.testing.assert_allclose(np.array(eval(grad_line)), fd, rtol=1e-7, atol=1e-8)
    assert np.array(eval(values_line)).tolist() == value(w).tolist()


# Reductions (and softmax) are allocated row-major by ATen whatever the input's layout; for
# x = arange(24.).reshape(2, 3, 4) transposed (0, 2) and permuted (1, 2, 0), PyTorch's strides:
REDUCTIONS = [
    ("t.amax(2, keepdim=True)", (3, 1, 1), (4, 1, 1)),
    ("t.max(1, keepdim=True)[0]", (2, 2, 1), (2, 2, 1)),
    ("t.std(1, keepdim=True)", (2, 2, 1), (2, 2, 1)),
    ("t.prod(1, keepdim=True)", (2, 2, 1), (2, 2, 1)),
    ("t.min(2).values", (3, 1), (4, 1)),
    ("t.sum(1, keepdim=True)", (2, 2, 1), (2, 2, 1)),
    ("t.softmax(1)", (6, 2, 1), (8, 2, 1)),
]


@pytest.mark.parametrize(("expr", "xt", "xp"), REDUCTIONS, ids=[r[0] for r in REDUCTIONS])
def test_reductions_are_row_major(expr: str, xt: tuple, xp: tuple) -> None:
    body = (
        "x = torch.arange(24.).reshape(2, 3, 4)\n"
        f"t = x.transpose(0, 2)\nprint(({expr}).stride())\n"
        f"t = x.permute(1, 2, 0)\nprint(({expr}).stride())\n"
    )
    assert _printed(body).splitlines() == [str(xt), str(xp)]


def test_unsqueeze_strides_are_pytorchs() -> None:
    """unsqueeze's new dimension has the extent of the one it goes before (1 at the end), and
    the other dimensions of size 1 keep theirs; PyTorch 2.13's strides."""
    body = (
        "x = torch.arange(24.).reshape(2, 3, 4).transpose(0, 2)\n"
        "c = torch.arange(3.).reshape(3, 1, 1).permute(1, 2, 0)\n"
        "s = torch.arange(24.).reshape(2, 3, 4)[:, 1:2, :].transpose(0, 1)\n"
        "for t in (x, c, s):\n"
        "    print(t.unsqueeze(0).stride(), t.unsqueeze(-1).stride(), t.unsqueeze(1).stride())\n"
    )
    assert _printed(body).splitlines() == [
        "(4, 1, 4, 12) (1, 4, 12, 1) (1, 12, 4, 12)",
        "(1, 1, 1, 1) (1, 1, 1, 1) (1, 1, 1, 1)",
        "(4, 4, 12, 1) (4, 12, 1, 1) (4, 24, 12, 1)",
    ]


# LAPACK's results through ATen: each matrix column-major, the batch row-major. (expression,
# PyTorch 2.13's strides); A is 3 x 3 (invertible, its Gram matrix plus 3 I positive definite),
# Ab a batch of two, B 3 x 2.
LAPACK_CASES = [
    ("torch.linalg.inv(A)", (1, 3)),
    ("torch.inverse(A)", (1, 3)),
    ("torch.linalg.inv(Ab)", (9, 1, 3)),
    ("torch.linalg.inv(A.double())", (1, 3)),
    ("torch.linalg.inv(A.t())", (1, 3)),
    ("torch.linalg.inv(torch.ones(1, 1) * 2)", (1, 1)),
    ("torch.linalg.solve(A, B)", (1, 3)),
    ("torch.linalg.solve(Ab, B)", (6, 1, 3)),
    ("torch.linalg.solve(A, B[:, 0])", (1,)),
    # a batch of vectors: the result's (batch, n) laid out as one column-major matrix
    ("torch.linalg.solve(Ab, B.t())", (1, 2)),
    ("torch.linalg.solve(Ab, B[:, 0])", (1, 2)),
    ("torch.linalg.solve(Ab.expand(4, 2, 3, 3), torch.ones(4, 2, 3))", (6, 1, 2)),
    ("torch.linalg.solve(A, B.t(), left=False)", (3, 1)),
    ("torch.linalg.cholesky(S)", (1, 3)),
    ("torch.linalg.cholesky(S, upper=True)", (1, 3)),
    ("torch.cholesky_inverse(torch.linalg.cholesky(S))", (1, 3)),
    ("torch.linalg.solve_triangular(A.triu(), B, upper=True)", (1, 3)),
    ("torch.linalg.solve_triangular(Ab.tril(), B, upper=False)", (6, 1, 3)),
    ("torch.linalg.solve_triangular(A.triu(), B.t(), upper=True, left=False)", (1, 2)),
    ("torch.linalg.qr(A).Q", (1, 3)),
    ("torch.linalg.qr(A).R", (1, 3)),
    ("torch.linalg.qr(torch.randn(4, 3)).Q", (1, 4)),
    ("torch.linalg.qr(torch.randn(4, 3), mode='complete').R", (1, 4)),
    ("torch.linalg.qr(torch.randn(3, 5)).R", (1, 3)),
    ("torch.linalg.qr(Ab).R", (9, 1, 3)),
    ("torch.linalg.qr(torch.randn(2, 4, 3), mode='complete').Q", (16, 1, 4)),
    ("torch.qr(A)[0]", (1, 3)),
    ("A.qr()[1]", (1, 3)),
    ("torch.linalg.qr(A, mode='r').R", (1, 3)),
    ("torch.linalg.qr(A, mode='r').Q", (1,)),
    ("torch.linalg.qr(A.double()).Q", (1, 3)),
    # svd, eigh, geqrf, lstsq (the first n rows of a column-major max(m, n)-row buffer) and
    # the LU family
    ("torch.linalg.svd(A).U", (1, 3)),
    ("torch.linalg.svd(A).Vh", (1, 3)),
    ("torch.linalg.svd(torch.randn(4, 2)).U", (1, 4)),
    ("torch.linalg.svd(torch.randn(4, 2), full_matrices=False).U", (1, 4)),
    ("torch.linalg.svd(torch.randn(2, 4)).Vh", (1, 4)),
    ("torch.linalg.svd(torch.randn(2, 4), full_matrices=False).Vh", (1, 2)),
    ("torch.linalg.svd(Ab).U", (9, 1, 3)),
    ("torch.linalg.svd(Ab).S", (3, 1)),
    ("torch.svd(A).V", (3, 1)),
    ("torch.svd(torch.randn(2, 4), some=False).V", (4, 1)),
    ("torch.linalg.eigh(S).eigenvectors", (1, 3)),
    ("torch.linalg.eigh(S).eigenvalues", (1,)),
    ("torch.geqrf(A).a", (1, 3)),
    ("torch.geqrf(Ab)[1]", (3, 1)),
    ("torch.linalg.lstsq(A, B).solution", (1, 3)),
    ("torch.linalg.lstsq(torch.randn(4, 2), torch.randn(4, 2)).solution", (1, 4)),
    ("torch.linalg.lstsq(torch.randn(2, 4), torch.randn(2, 2)).solution", (1, 4)),
    ("torch.linalg.lstsq(Ab, B.expand(2, 3, 2)).solution", (6, 1, 3)),
    ("torch.linalg.lu_factor(A).LU", (1, 3)),
    ("torch.linalg.lu(A).L", (3, 1)),
    ("torch.linalg.lu(A).P", (3, 1)),
    ("torch.linalg.lu_solve(*torch.linalg.lu_factor(A), B)", (1, 3)),
    ("torch.linalg.lu_solve(*torch.linalg.lu_factor(A), B.t(), left=False)", (3, 1)),
    ("torch.triangular_solve(B, A)[0]", (1, 3)),
    ("torch.triangular_solve(B, A)[1]", (1, 3)),
    ("torch.linalg.inv(A) * 2", (1, 3)),
    ("torch.linalg.inv(A).clone()", (1, 3)),
    ("torch.linalg.inv(A).contiguous()", (3, 1)),
    ("torch.linalg.inv(A).t()", (3, 1)),
]


@pytest.mark.parametrize(("expr", "strides"), LAPACK_CASES, ids=[c[0] for c in LAPACK_CASES])
def test_lapack_results_are_column_major(expr: str, strides: tuple) -> None:
    body = (
        "A = torch.randn(3, 3)\nAb = torch.randn(2, 3, 3)\nB = torch.randn(3, 2)\n"
        "S = A @ A.t() + 3 * torch.eye(3)\n"
        f"r = {expr}\nprint(r.stride(), r.is_contiguous())\n"
    )
    expected = f"{strides} {strides == (1,) or strides[-1] == 1 and len(strides) < 3}"
    assert _printed(body) == expected


def test_lstsq_solution_is_a_slice_of_lapacks_buffer() -> None:
    # PyTorch 2.13: a batch of vectors solved against 4 x 3 matrices is the first 3 entries of
    # rows 4 apart; a wide system's solution has n rows of a buffer of n rows
    out = _printed(
        "x = torch.linalg.lstsq(torch.randn(2, 4, 3), torch.randn(2, 4)).solution\n"
        "print(x.shape, x.stride(), x.is_contiguous())\n"
        "y = torch.linalg.lstsq(torch.randn(2, 3, 4), torch.randn(2, 3, 2)).solution\n"
        "print(y.shape, y.stride())\n"
    )
    assert out.splitlines() == [
        "torch.Size([2, 3]) (4, 1) False",
        "torch.Size([2, 4, 2]) (8, 1, 4)",
    ]


def test_view_of_an_inverse_is_refused_and_its_product_rounds_as_pytorchs() -> None:
    # A view that flattens a column-major inverse spans two subspaces: PyTorch refuses it.
    out = _printed(
        "A = torch.randn(4, 4)\ntry:\n    torch.linalg.inv(A).view(-1)\n"
        "except RuntimeError as e:\n    print(e)\n"
        "print(torch.linalg.inv(A).mT.view(-1).shape)\n"
    )
    assert out.splitlines() == [
        "view size is not compatible with input tensor's size and stride (at least one "
        "dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
        "torch.Size([16])",
    ]
    # A @ inv(A) reads the inverse column-major, as the float32 product of a transposed
    # operand: the same values as multiplying by the transpose of its row-major copy.
    out = _printed(
        "A = torch.randn(5, 5)\nX = torch.linalg.inv(A)\n"
        "Y = X.t().contiguous().t()\n"
        "print(torch.equal(A @ X, A @ Y), Y.stride(), X.stride())\n"
    )
    assert out == "True (1, 5) (1, 5)"


def test_column_major_helper_keeps_the_values_and_lays_each_matrix_out_by_columns() -> None:
    from gradcli.core.layout import column_major, torch_strides

    a = np.arange(24.0).reshape(2, 3, 4)
    out = column_major(a)
    assert np.array_equal(out, a)
    assert torch_strides(out) == (12, 1, 3)
    assert column_major(np.arange(3.0)).strides == (8,)  # a vector is left alone
    empty = np.ones((0, 2, 2))
    assert column_major(empty) is empty  # so is an empty one
