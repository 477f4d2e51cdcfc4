"""The linear algebra of the surface: einsum's subscripts (implicit output, `...`, repeated
labels, broadcasting, the list and sublist forms), PyTorch's grad_fn names, named results,
degenerate matrices, norms; and, where PyTorch is installed, values and gradients against it."""

from __future__ import annotations

import math

import numpy as np
import pytest

import gradcli.surface.names  # noqa: F401  (installs the tensor methods)
from gradcli.base.errors import GradcliError, LimitError
from gradcli.core.autograd import grad
from gradcli.core.tensor import Settings, Tensor
from gradcli.ops.matrices import lu_info
from gradcli.surface import linalg as L


def _t(a, requires_grad: bool = False) -> Tensor:
    return Tensor(np.asarray(a, dtype=np.float64), requires_grad=requires_grad)


def _rand(*shape: int, seed: int = 0, requires_grad: bool = True) -> Tensor:
    return _t(np.random.default_rng(seed).uniform(-1, 1, size=shape), requires_grad)


# --- einsum: subscripts ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "eq, shapes",
    [
        ("ij,jk->ik", [(2, 3), (3, 4)]),
        ("ij,jk", [(2, 3), (3, 4)]),  # implicit: ik
        ("ba,ab", [(2, 3), (3, 2)]),  # implicit: nothing left
        ("ij->ji", [(2, 3)]),
        ("ii->i", [(3, 3)]),
        ("ii", [(3, 3)]),
        ("iij->ji", [(3, 3, 2)]),
        ("...ij,...jk->...ik", [(2, 1, 2, 3), (5, 3, 4)]),
        ("...ij->...ji", [(2, 3, 4)]),
        ("b i j, b i j -> b", [(2, 3, 4), (2, 3, 4)]),
        ("i,j,k->ijk", [(2,), (3,), (4,)]),
        ("ij,jk->ik", [(2, 3), (1, 4)]),  # a size-1 axis broadcasts
        ("Ab,bA->A", [(2, 3), (3, 2)]),
        (",i->i", [(), (3,)]),
    ],
)
def test_einsum_matches_numpy(eq: str, shapes: list) -> None:
    ops = [_rand(*s, seed=k) for k, s in enumerate(shapes)]
    got = L.einsum(eq, *ops)
    arrays = [t.data for t in ops]
    if "..." not in eq and "(1, 4)" not in str(shapes):
        want = np.einsum(eq.replace(" ", ""), *arrays)
    else:  # broadcasting size-1 axes: NumPy needs them spelled out
        want = np.einsum(
            eq.replace(" ", ""), *[np.broadcast_to(a, a.shape) for a in arrays], optimize=True
        )
    np.testing.assert_allclose(got.data, want, rtol=1e-12, atol=1e-14)
    # The gradient of <out, w> for each operand is finite differences' (float64).
    w = np.random.default_rng(9).uniform(-1, 1, size=got.shape)
    gs = grad(got, ops, grad_outputs=Tensor(w))
    for k, (t, g) in enumerate(zip(ops, gs, strict=True)):
        assert g.shape == t.shape
        num = np.zeros(t.shape)
        for idx in np.ndindex(t.shape):

            def f(h: float, idx=idx, k=k) -> float:
                moved = [a.copy() for a in arrays]
                moved[k][idx] += h
                return float(np.sum(L.einsum(eq, *[_t(a) for a in moved]).data * w))

            num[idx] = (f(1e-6) - f(-1e-6)) / 2e-6
        np.testing.assert_allclose(g.data, num, rtol=1e-6, atol=1e-8)


def test_einsum_list_and_sublist_forms() -> None:
    a, b = _rand(2, 3), _rand(3, 4, seed=1)
    want = a.data @ b.data
    np.testing.assert_allclose(L.einsum("ij,jk->ik", [a, b]).data, want, rtol=1e-13)
    np.testing.assert_allclose(L.einsum(a, [0, 1], b, [1, 2], [0, 2]).data, want, rtol=1e-13)
    np.testing.assert_allclose(L.einsum(a, [0, 1], b, [1, 2]).data, want, rtol=1e-13)


@pytest.mark.parametrize(
    "eq, shapes, label",
    # PyTorch 2.13's grad_fn names: one operand sums (Sum) or permutes (Permute); several
    # operands end in a view when a label is summed, else in a product (Mul).
    [
        ("ij,jk->ik", [(2, 3), (3, 4)], "ViewBackward0"),
        ("ij,jk->ki", [(2, 3), (3, 4)], "ViewBackward0"),
        ("ij->ji", [(2, 3)], "PermuteBackward0"),
        ("ij->ij", [(2, 3)], "PermuteBackward0"),
        ("ii->i", [(3, 3)], "PermuteBackward0"),
        ("ij->", [(2, 3)], "SumBackward1"),
        ("ii", [(3, 3)], "SumBackward1"),
        ("i,j->ij", [(3,), (4,)], "MulBackward0"),
        ("ij,j->ji", [(2, 3), (3,)], "MulBackward0"),
        ("ij,j->j", [(2, 3), (3,)], "ViewBackward0"),
        ("i,i->", [(3,), (3,)], "ViewBackward0"),
    ],
)
def test_einsum_grad_fn_names_are_torchs(eq: str, shapes: list, label: str) -> None:
    out = L.einsum(eq, *[_rand(*s, seed=k) for k, s in enumerate(shapes)])
    assert out.node.name() == label


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda a: L.einsum("ij,jk->ik", a), "fewer operands were provided"),
        (lambda a: L.einsum("ij", a, a), "more operands were provided"),
        (lambda a: L.einsum("ijk", a), "the number of subscripts in the equation (3) does not"),
        (lambda a: L.einsum("ij->ik", a), "output subscript k does not appear"),
        (lambda a: L.einsum("ij->ii", a), "output subscript i appears more than once"),
        (lambda a: L.einsum("i1", a), "invalid subscript given at index 1"),
        (lambda a: L.einsum("..i", a), "found '.' for operand 0 that is not part of any ellipsis"),
        (lambda a: L.einsum("ij,ij->", a, _rand(3, 2)), "subscript i has size 3 for operand 1"),
        (lambda a: L.einsum("ii", a), "subscript i is repeated for operand 0 but the sizes"),
    ],
)
def test_einsum_errors_are_torchs(call, message: str) -> None:
    with pytest.raises(GradcliError) as e:
        call(_rand(2, 3))
    assert message in str(e.value)


def test_einsum_refuses_big_results_before_making_them(monkeypatch) -> None:
    monkeypatch.setenv("GRADCLI_TENSOR_ELEMENTS", "1000")
    v = _rand(20)
    with pytest.raises(LimitError, match="the result of einsum is 8,000"):
        L.einsum("a,b,c->abc", v, v, v)
    m = _rand(20, 20)
    with pytest.raises(LimitError, match="an intermediate result of einsum is 160,000"):
        L.einsum("ac,bd,ab,cd->", m, m, m, m)
    assert float(L.einsum("a,b,c->", v, v, v).data) == pytest.approx(float(v.data.sum()) ** 3)


# --- tensordot, addmm, kron ----------------------------------------------------------------


def test_tensordot_dims_forms() -> None:
    a, b = _rand(2, 3, 4), _rand(4, 3, seed=1)
    want = np.tensordot(a.data, b.data, axes=([1, 2], [1, 0]))
    np.testing.assert_allclose(L.tensordot(a, b, ([1, 2], [1, 0])).data, want, rtol=1e-13)
    np.testing.assert_allclose(
        L.tensordot(_rand(3, 4), _rand(4, 5), 1).data,
        np.tensordot(_rand(3, 4).data, _rand(4, 5).data, 1),
        rtol=1e-13,
    )
    with pytest.raises(GradcliError, match="contracted dimensions need to match"):
        L.tensordot(a, b, ([2], [1]))


def test_addmm_beta_zero_ignores_nan_input() -> None:
    inp = _t([[math.nan, 1.0], [1.0, 1.0]], True)
    m1, m2 = _rand(2, 3), _rand(3, 2, seed=1)
    out = L.addmm(inp, m1, m2, beta=0, alpha=2.0)
    np.testing.assert_allclose(out.data, 2 * m1.data @ m2.data, rtol=1e-13)
    assert out.node.name() == "AddmmBackward0"
    (g,) = grad(out.sum(), [inp])
    np.testing.assert_array_equal(g.data, np.zeros((2, 2)))


def test_kron_of_matrices_and_vectors() -> None:
    a, b = _rand(2, 3), _rand(2, 2, seed=1)
    np.testing.assert_allclose(L.kron(a, b).data, np.kron(a.data, b.data), rtol=1e-13)
    v = _rand(3)
    np.testing.assert_allclose(L.kron(v, a).data, np.kron(v.data, a.data), rtol=1e-13)


# --- named results, degenerate matrices ----------------------------------------------------


def test_named_results_print_and_unpack_as_torchs() -> None:
    r = L.slogdet(Tensor(np.eye(2, dtype=Settings.default_dtype)))  # printed without dtype
    assert repr(r) == (
        "torch.return_types.linalg_slogdet(\nsign=tensor(1.),\nlogabsdet=tensor(0.))"
    )
    sign, logabs = r
    assert r.program_attribute("logabsdet") is logabs
    w, v = L.eigh(_t(np.diag([2.0, 1.0]), True))
    np.testing.assert_array_equal(w.data, [1.0, 2.0])
    assert w.node.name() == v.node.name() == "LinalgEighBackward0"


def test_lu_info_is_lapacks_first_zero_pivot() -> None:
    assert lu_info(np.array([[1.0, 2.0], [2.0, 4.0]])) == 2
    assert lu_info(np.zeros((3, 3))) == 1
    assert lu_info(np.eye(70)) == 0
    m = np.eye(70)
    m[40, 40] = 0.0
    assert lu_info(m) == 41


def test_singular_inverse_and_not_positive_definite_messages() -> None:
    with pytest.raises(GradcliError, match="The diagonal element 2 is zero"):
        L.inv(_t([[1.0, 2.0], [2.0, 4.0]]))
    with pytest.raises(GradcliError, match=r"\(Batch element 1\): The solver failed"):
        L.solve(_t([np.eye(2), np.zeros((2, 2))]), _t([1.0, 1.0]))
    with pytest.raises(GradcliError, match="the leading minor of order 2 is not"):
        L.cholesky(_t([[1.0, 2.0], [2.0, 1.0]]))


def test_det_gradient_at_a_singular_matrix() -> None:
    a = _t([[1.0, 2.0], [2.0, 4.0]], True)
    (g,) = grad(L.det(a), [a])
    np.testing.assert_array_equal(g.data, np.zeros((2, 2)))  # first order: 0, as PyTorch
    (g2,) = grad(L.det(a), [a], create_graph=True)  # recorded: the adjugate
    np.testing.assert_allclose(g2.data, [[4.0, -2.0], [-2.0, 1.0]], atol=1e-12)


def test_repeated_eigenvalues_give_finite_value_gradients() -> None:
    a = _t(np.eye(3), True)
    w, _ = L.eigh(a)
    (g,) = grad(w.sum(), [a])
    np.testing.assert_allclose(g.data, np.eye(3), atol=1e-12)
    s = L.svdvals(a)
    (g,) = grad(s.sum(), [a])
    np.testing.assert_allclose(g.data, np.eye(3), atol=1e-12)


# --- norms -------------------------------------------------------------------------------------


@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf])
def test_matrix_norm_orders(ord) -> None:
    a = _rand(3, 4)
    np.testing.assert_allclose(L.matrix_norm(a, ord).data, np.linalg.norm(a.data, ord), rtol=1e-12)


@pytest.mark.parametrize("ord", [0, 1, 2, 3.5, math.inf, -math.inf, -1, 0.5])
def test_vector_norm_orders(ord) -> None:
    v = _rand(5)
    np.testing.assert_allclose(L.vector_norm(v, ord).data, np.linalg.norm(v.data, ord), rtol=1e-12)


# --- against PyTorch (when installed) ------------------------------------------------------------


TORCH_CASES = [
    ("torch.einsum('bij,bjk->bik', A3, B3)", ["A3", "B3"]),
    ("torch.einsum('...ij,...j->...i', A3, v)", ["A3", "v"]),
    ("torch.einsum('ii->', S)", ["S"]),
    ("torch.tensordot(A3, B3, dims=([0, 2], [0, 1]))", ["A3", "B3"]),
    ("torch.addmm(C, S, S, beta=0.5, alpha=2.0)", ["C", "S"]),
    ("torch.baddbmm(A3[:, :, :3], A3, B3, alpha=0.5)", ["A3", "B3"]),
    ("torch.addmv(v3, S, v3, beta=2.0)", ["S", "v3"]),
    ("torch.kron(S, C)", ["S", "C"]),
    ("torch.cdist(A3, B3.mT)", ["A3", "B3"]),
    ("torch.cdist(A3, B3.mT, p=1.5)", ["A3", "B3"]),
    ("torch.cdist(W, W2)", ["W", "W2"]),
    ("torch.linalg.inv(S)", ["S"]),
    ("torch.linalg.det(S) + torch.logdet(P)", ["S", "P"]),
    ("torch.linalg.slogdet(S)[1]", ["S"]),
    ("torch.linalg.solve(S, C)", ["S", "C"]),
    ("torch.linalg.solve(S, v3)", ["S", "v3"]),
    ("torch.linalg.cholesky(P)", ["X"]),
    ("torch.linalg.cholesky(P, upper=True)", ["X"]),
    ("torch.linalg.eigh(P)[0]", ["X"]),
    ("torch.linalg.eigh(P).eigenvectors.abs()", ["X"]),
    ("torch.linalg.svdvals(B3)", ["B3"]),
    ("torch.linalg.svd(S)[0].abs()", ["S"]),
    ("torch.linalg.qr(B3[0].mT)[1].abs()", ["B3"]),
    ("torch.linalg.pinv(B3)", ["B3"]),
    ("torch.linalg.pinv(P, hermitian=True)", ["X"]),
    ("torch.linalg.cross(A3[..., :3], B3.mT[..., :3])", ["A3", "B3"]),
    ("torch.linalg.matrix_power(S, -3)", ["S"]),
    ("torch.linalg.multi_dot([S, C, S, v3])", ["S", "C", "v3"]),
    ("torch.linalg.matrix_norm(A3, 'nuc')", ["A3"]),
    ("torch.linalg.matrix_norm(A3, -2)", ["A3"]),
    ("torch.linalg.norm(S, float('inf'))", ["S"]),
    ("torch.linalg.vector_norm(A3, -1.5, dim=(0, 2))", ["A3"]),
    ("torch.dist(S, C, 3)", ["S", "C"]),
]

SETUP = """
A3 = torch.tensor(np.random.default_rng(1).uniform(-1, 1, (2, 3, 4)), requires_grad=True)
B3 = torch.tensor(np.random.default_rng(2).uniform(-1, 1, (2, 4, 3)), requires_grad=True)
v = torch.tensor(np.random.default_rng(3).uniform(-1, 1, 4), requires_grad=True)
v3 = torch.tensor(np.random.default_rng(4).uniform(-1, 1, 3), requires_grad=True)
S = torch.tensor(np.random.default_rng(5).uniform(-1, 1, (3, 3)) + 2 * np.eye(3),
                 requires_grad=True)
C = torch.tensor(np.random.default_rng(6).uniform(-1, 1, (3, 3)), requires_grad=True)
X = torch.tensor(np.random.default_rng(7).uniform(-1, 1, (3, 3)), requires_grad=True)
P = X @ X.mT + torch.eye(3, dtype=torch.float64)
W = torch.tensor(np.random.default_rng(8).uniform(-1, 1, (30, 2)), requires_grad=True)
W2 = torch.tensor(np.random.default_rng(9).uniform(-1, 1, (4, 2)), requires_grad=True)
"""


def _run(torch_module, src: str, wrt: list[str]):
    env = {"torch": torch_module, "np": np}
    exec(SETUP, env)  # noqa: S102 - the test's own fixed text, for PyTorch and for gradcli
    out = eval(src, env)  # noqa: S307
    w = np.random.default_rng(11).uniform(-1, 1, size=tuple(out.shape))
    return out, [env[n] for n in wrt], w


class _Shim:
    """Just enough of `torch` for the expressions above, on gradcli's surface."""

    float64 = np.float64

    def __init__(self) -> None:
        from gradcli.lang.namespaces import build_namespaces

        self._ns = build_namespaces()["torch"]

    def tensor(self, data, requires_grad: bool = False):
        return Tensor(np.asarray(data, dtype=np.float64), requires_grad=requires_grad)

    def eye(self, n, dtype=None):
        return Tensor(np.eye(n))

    def __getattr__(self, name):
        v = self._ns.members[name]
        if name == "linalg":
            return _Members(v.members)
        return v


class _Members:
    def __init__(self, members: dict) -> None:
        self._m = members

    def __getattr__(self, name):
        return self._m[name]


@pytest.mark.parametrize("src, wrt", TORCH_CASES, ids=[c[0] for c in TORCH_CASES])
def test_values_and_gradients_match_torch(src: str, wrt: list[str]) -> None:
    torch = pytest.importorskip("torch")
    tout, tins, w = _run(torch, src, wrt)
    gout, gins, _ = _run(_Shim(), src, wrt)
    np.testing.assert_allclose(gout.data, tout.detach().numpy(), rtol=1e-10, atol=1e-12)
    tg = torch.autograd.grad(tout, tins, torch.tensor(w))
    gg = grad(gout, gins, grad_outputs=Tensor(w))
    for a, b in zip(gg, tg, strict=True):
        np.testing.assert_allclose(a.data, b.numpy(), rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("name", ["einsum", "det", "cholesky", "qr", "eigh", "svd", "pinv"])
def test_a_linalg_rule_off_by_a_tenth_of_a_percent_fails_the_op_check(name: str) -> None:
    from gradcli import ops
    from tests.helpers import gradcheck as gc

    op = ops.REGISTRY[name]
    rule = op.vjp
    bad = op.replace(
        vjp=lambda g, out, *xs, **p: tuple(
            None if r is None else r * 1.001 for r in rule(g, out, *xs, **p)
        )
    )
    s = op.samples[0]
    gc.check_vjp(op, s, seed=3)
    with pytest.raises(gc.GradcheckError, match="relative error"):
        gc.check_vjp(bad, s, seed=3)


def test_trace_of_float32_adds_the_diagonal_in_double_as_pytorch() -> None:
    """PyTorch's CPU trace accumulates a float matrix's diagonal in order in double and rounds
    once: diag(1e8, 1, -1e8, 1) has trace 2 (a float32 sum gives 1 or 0). Its value of
    PyTorch 2.13 (by hand); the gradient is the identity's, through TraceBackward0."""
    from gradcli.surface import composite as CP

    x = Tensor(np.diag(np.array([1e8, 1.0, -1e8, 1.0], np.float32)), requires_grad=True)
    t = CP.trace(x)
    assert t.data.dtype == np.float32 and float(t.data) == 2.0
    assert t.node is not None and t.node.name() == "TraceBackward0"
    (g,) = grad([t], [x])
    assert np.array_equal(g.data, np.eye(4, dtype=np.float32))
    # float64 is summed as before (its own accumulation type)
    y = Tensor(np.diag(np.array([0.1, 0.2, 0.3])))
    assert float(CP.trace(y).data) == float(np.sum(np.array([0.1, 0.2, 0.3])))
    # an empty matrix: 0
    assert float(CP.trace(Tensor(np.zeros((0, 3), np.float32))).data) == 0.0


def test_matrix_power_of_integers_is_integer_matmul_and_negative_powers_meet_inv() -> None:
    """PyTorch's linalg.matrix_power checks the shape only: a positive power of an integer
    matrix is repeated integer matmul in its dtype (uint8 wraps), n = 0 is the identity of the
    input's dtype (bool too), and a negative power reaches linalg.inv's dtype refusal."""
    a = np.array([[4, 4, 3], [0, 3, 4], [2, 3, 2]])
    for dt, n in ((np.int64, 3), (np.int32, 2), (np.uint8, 5)):
        out = L.matrix_power(Tensor(a.astype(dt)), n)
        want = np.linalg.matrix_power(a.astype(dt), n)  # NumPy's integer powers wrap as ATen's
        assert out.data.dtype == dt and np.array_equal(out.data, want)
    eye = L.matrix_power(Tensor(a.astype(bool)), 0)
    assert eye.data.dtype == np.bool_ and np.array_equal(eye.data, np.eye(3, dtype=bool))
    with pytest.raises(GradcliError, match=r"linalg\.inv: Expected a floating point .* Got Long"):
        L.matrix_power(Tensor(a), -1)
    with pytest.raises(GradcliError, match="at least 2 dimensions"):
        L.matrix_power(Tensor(a[0]), 2)
    with pytest.raises(GradcliError, match="must be batches of square matrices"):
        L.matrix_power(Tensor(a[:2]), 2)


@pytest.mark.parametrize("fn", ["eigh", "svd", "slogdet", "qr"])
def test_decompositions_of_an_empty_batch_have_empty_results_and_gradients(fn: str) -> None:
    """A batch of no matrices (shape (0, n, n)) decomposes into results with a 0 leading axis,
    as PyTorch's: the packed record's flattening cannot infer a -1 from a size-0 array."""
    a = Tensor(np.zeros((0, 3, 3)), requires_grad=True)
    outs = {
        "eigh": lambda: L.eigh(a),
        "svd": lambda: L.svd(a, full_matrices=False),
        "slogdet": lambda: L.slogdet(a),
        "qr": lambda: L.qr(a),
    }[fn]()
    want = {
        "eigh": [(0, 3), (0, 3, 3)],
        "svd": [(0, 3, 3), (0, 3), (0, 3, 3)],
        "slogdet": [(0,), (0,)],
        "qr": [(0, 3, 3), (0, 3, 3)],
    }[fn]
    assert [tuple(t.shape) for t in outs] == want
    total = sum(t.sum() for t in outs if t.requires_grad)
    (g,) = grad([total], [a])
    assert g.shape == (0, 3, 3)
    assert L.eigvalsh(Tensor(np.zeros((2, 0, 0)))).shape == (2, 0)
