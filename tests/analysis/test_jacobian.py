"""The Jacobian / Hessian library (`gradcli.jacobian`): every method against the others, finite
differences and PyTorch (float64, 1e-9), the layout, zero blocks, limits and the edge cases of
each method (intermediate inputs, user-defined gradients, float32, the program's own
backward() calls)."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli
from gradcli import ops
from gradcli.analysis.differences import NUMERIC_STEP
from gradcli.analysis.hessian import hessian, hvp
from gradcli.analysis.jacobian import METHODS, compare, jacobian, jacobian_of
from gradcli.base.errors import GradcliError, LimitError, UsageError
from gradcli.core.op import apply
from gradcli.core.tensor import Tensor
from tests.helpers import gradcheck as gc

ANALYTIC = ("rows", "batched", "forward")

# Programs that are not in the repository, each with the same function written for PyTorch.
NET = """\
import torch
x = torch.tensor([[0.3, -1.2, 0.5], [1.1, 0.2, -0.7]], requires_grad=True)
W = torch.tensor([[0.2, -0.5], [0.7, 0.1], [-0.3, 0.4]], requires_grad=True)
b = torch.tensor([0.1, -0.2], requires_grad=True)
h = torch.tanh(x @ W + b)
p = torch.softmax(h * 3, dim=1)
y = torch.cat([p.reshape(-1), torch.logsumexp(h, dim=0), (x ** 2).sum(dim=0).sqrt()])
"""


def net_torch(x, W, b):  # noqa: N803
    import torch

    h = torch.tanh(x @ W + b)
    p = torch.softmax(h * 3, dim=1)
    return torch.cat([p.reshape(-1), torch.logsumexp(h, dim=0), (x**2).sum(dim=0).sqrt()])


MIX = """\
u = tensor([0.5, -0.3, 1.2, 0.8], requires_grad=True)
A = tensor([[1.0, 0.5, -0.2, 0.1], [0.3, -1.0, 0.8, 0.4], [0.2, 0.2, -0.6, 1.5]],
           requires_grad=True)
z = A @ torch.sigmoid(u)
q = torch.stack([z[0] * z[2], torch.exp(-z[1]), F.softplus(u).prod()])
y = torch.where(q > 0.5, q, q * q) + torch.norm(A, dim=1) * u[1:]
"""


def mix_torch(u, A):  # noqa: N803
    import torch
    import torch.nn.functional as F  # noqa: N812

    z = A @ torch.sigmoid(u)
    q = torch.stack([z[0] * z[2], torch.exp(-z[1]), F.softplus(u).prod()])
    return torch.where(q > 0.5, q, q * q) + torch.norm(A, dim=1) * u[1:]


SCALAR = """\
x = tensor([0.5, -0.3, 1.2], requires_grad=True)
A = tensor([[1.0, 0.5, -0.2], [0.3, -1.0, 0.8]], requires_grad=True)
z = A @ torch.sigmoid(x)
y = (z * z).sum() + torch.log1p(torch.exp(x)).prod() + torch.norm(A) * x.mean()
"""


def scalar_torch(x, A):  # noqa: N803
    import torch

    z = A @ torch.sigmoid(x)
    return (z * z).sum() + torch.log1p(torch.exp(x)).prod() + torch.norm(A) * x.mean()


def _torch_inputs(program: str, names: list[str]):
    import torch

    r = gradcli.run(program)
    return [torch.tensor(r.tensor(n).data, dtype=torch.float64) for n in names]


# --- methods agree ------------------------------------------------------------------------


@pytest.mark.parametrize("prog", [NET, MIX, SCALAR], ids=["net", "mix", "scalar"])
def test_methods_agree_with_each_other_and_finite_differences(prog: str) -> None:
    c = compare(prog, methods=("rows", "batched", "forward", "numeric", "auto"))
    assert c.results["auto"].method in ("batched", "forward")
    for m in ANALYTIC + ("auto",):
        np.testing.assert_allclose(
            c.results[m].matrix, c.results["rows"].matrix, rtol=1e-13, atol=1e-14
        )
    np.testing.assert_allclose(
        c.results["numeric"].matrix, c.results["rows"].matrix, rtol=1e-7, atol=1e-8
    )
    assert c.largest < 1e-7
    assert c.ok and c.kinks == 0
    for d, rel in c.differences().values():
        assert d <= c.largest and rel <= 1e-7


@pytest.mark.parametrize("method", ANALYTIC + ("numeric",))
def test_net_matches_torch(method: str) -> None:
    torch = pytest.importorskip("torch", exc_type=ImportError)
    r = jacobian(NET, of="y", wrt=["x", "W", "b"], method=method)
    want = torch.autograd.functional.jacobian(net_torch, tuple(_torch_inputs(NET, ["x", "W", "b"])))
    tol = 1e-9 if method != "numeric" else 1e-7
    for (name, block), w in zip(r.blocks.items(), want):
        assert block.array.shape == tuple(w.shape), name
        np.testing.assert_allclose(block.array, w.numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("method", ANALYTIC)
def test_mix_matches_torch(method: str) -> None:
    torch = pytest.importorskip("torch", exc_type=ImportError)
    r = jacobian(MIX, wrt=["u", "A"], method=method)
    want = torch.autograd.functional.jacobian(mix_torch, tuple(_torch_inputs(MIX, ["u", "A"])))
    for block, w in zip(r.blocks.values(), want):
        np.testing.assert_allclose(block.array, w.numpy(), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("method", ["batched", "rows", "numeric"])
def test_hessian_matches_torch(method: str) -> None:
    torch = pytest.importorskip("torch", exc_type=ImportError)
    h = hessian(SCALAR, wrt=["x", "A"], method=method)
    want = torch.autograd.functional.hessian(scalar_torch, tuple(_torch_inputs(SCALAR, ["x", "A"])))
    tol = 1e-9 if method != "numeric" else 1e-6
    for i, a in enumerate(["x", "A"]):
        for j, b in enumerate(["x", "A"]):
            got = h.blocks[(a, b)]
            assert got.shape == tuple(want[i][j].shape)
            np.testing.assert_allclose(got, want[i][j].numpy(), rtol=tol, atol=tol)
    assert h.asymmetry < 1e-12 if method != "numeric" else 1e-6


def test_hvp_is_hessian_times_v_and_matches_torch() -> None:
    h = hessian(SCALAR, wrt=["x", "A"])
    v = np.linspace(-1, 1, 9)
    got = hvp(SCALAR, wrt=["x", "A"], v=v)
    assert got.passes == 2
    full = h.matrix @ v
    np.testing.assert_allclose(got.hvp["x"], full[:3], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(got.hvp["A"].reshape(-1), full[3:], rtol=1e-12, atol=1e-14)
    # v as one array per input, or by name
    same = hvp(SCALAR, wrt=["x", "A"], v={"x": v[:3], "A": v[3:].reshape(2, 3)})
    np.testing.assert_array_equal(same.hvp["A"], got.hvp["A"])
    torch = pytest.importorskip("torch", exc_type=ImportError)
    xs = tuple(_torch_inputs(SCALAR, ["x", "A"]))
    vt = (torch.tensor(v[:3]), torch.tensor(v[3:].reshape(2, 3)))
    _, want = torch.autograd.functional.hvp(scalar_torch, xs, vt)
    np.testing.assert_allclose(got.hvp["x"], want[0].numpy(), rtol=1e-9)
    np.testing.assert_allclose(got.hvp["A"], want[1].numpy(), rtol=1e-9)


# --- layout -------------------------------------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
def test_layout_rows_are_outputs_columns_are_inputs(method: str) -> None:
    # y = A @ x with A 3 x 2: J = A exactly (not its transpose).
    prog = "x = tensor([1., 2.], requires_grad=True)\nA = tensor([[1., 2.], [3., 4.], [5., 6.]])\n"
    r = jacobian(prog + "y = A @ x\n", method=method)
    assert r.array.shape == (3, 2)
    np.testing.assert_allclose(r.array, [[1, 2], [3, 4], [5, 6]], rtol=1e-8)


@pytest.mark.parametrize("method", METHODS)
def test_array_form_is_of_shape_plus_wrt_shape(method: str) -> None:
    prog = (
        "X = tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)\n"
        "w = tensor([0.5, -1., 2.], requires_grad=True)\ny = X * w\n"
    )
    r = jacobian(prog, method=method)
    jx, jw = r.blocks["X"], r.blocks["w"]
    assert jx.array.shape == (2, 3, 2, 3) and jx.matrix.shape == (6, 6)
    assert jw.array.shape == (2, 3, 3) and jw.matrix.shape == (6, 3)
    assert r.matrix.shape == (6, 9)
    X = np.array([[1, 2, 3], [4, 5, 6.0]])
    w = np.array([0.5, -1, 2])
    for i in range(2):
        for j in range(3):
            for k in range(2):
                for l in range(3):
                    want = w[j] if (i, j) == (k, l) else 0.0
                    assert abs(jx.array[i, j, k, l] - want) < 1e-8
            for l in range(3):
                assert abs(jw.array[i, j, l] - (X[i, j] if j == l else 0.0)) < 1e-8


@pytest.mark.parametrize("method", METHODS)
def test_scalar_output_and_scalar_input(method: str) -> None:
    r = jacobian("a = tensor(3., requires_grad=True)\ny = a * a * a\n", method=method)
    assert r.of_shape == () and r.array.shape == ()
    assert abs(float(r.array) - 27.0) < 1e-8


# --- zero blocks, intermediates, identity --------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
def test_unused_input_gives_a_flagged_zero_block(method: str) -> None:
    prog = (
        "x = tensor([1., 2.], requires_grad=True)\nu = tensor([3., 4., 5.], "
        "requires_grad=True)\ny = x * 2\n"
    )
    r = jacobian(prog, wrt=["x", "u"], method=method)
    assert r.unused == ["u"]
    assert r.blocks["u"].array.shape == (2, 3) and not np.any(r.blocks["u"].array)
    assert not r.blocks["x"].unused
    assert r.to_json()["unused"] == ["u"]


@pytest.mark.parametrize("method", METHODS)
def test_intermediate_wrt_as_torch_autograd_grad(method: str) -> None:
    prog = "x = tensor([0.5, -1.0, 2.0], requires_grad=True)\nh = x * x\ny = torch.sin(h) + x\n"
    r = jacobian(prog, of="y", wrt=["h", "x"], method=method)
    x = np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(r.blocks["h"].array, np.diag(np.cos(x * x)), atol=1e-8)
    np.testing.assert_allclose(r.blocks["x"].array, np.diag(np.cos(x * x) * 2 * x + 1), atol=1e-8)


@pytest.mark.parametrize("method", METHODS)
def test_output_with_respect_to_itself_is_the_identity(method: str) -> None:
    r = jacobian(
        "x = tensor([1., 2., 3., 4., 5., 6.], requires_grad=True)\n", of="x", wrt="x", method=method
    )
    np.testing.assert_allclose(r.array, np.eye(6), atol=1e-9)


def test_rows_uses_one_pass_per_output_element_and_auto_says_which() -> None:
    prog = "x = tensor([1., 2.], requires_grad=True)\ny = torch.cat([x, x * x, x.sum(0, True)])\n"
    assert jacobian(prog, method="rows").passes == 5
    assert jacobian(prog, method="batched").passes == 1
    a = jacobian(prog, method="auto")
    assert (a.method, a.requested) == ("forward", "auto") and "2 input elements < 5" in a.note
    b = jacobian("x = tensor([1., 2.], requires_grad=True)\ny = x.sum()\n", method="auto")
    assert b.method == "batched"
    assert jacobian(prog, method="numeric").passes == 4


def test_long_rows_replay_equals_fresh_passes() -> None:
    # More than a few rows: the recorded backward is replayed; it must equal fresh passes.
    prog = (
        "x = tensor([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], requires_grad=True)\n"
        "M = tensor([[1., 2., 3., 4., 5., 6.], [0., 1., 0., 1., 0., 1.]])\n"
        "h = (M.t() @ (M @ torch.exp(x))).reshape(2, 3)\n"
        "y = torch.cat([h.max(dim=1).values, h.mean(0), "
        "torch.log_softmax(h, 1)[:, 1:].reshape(-1)])\n"
    )
    rows = jacobian(prog, method="rows")
    assert rows.passes == 9
    np.testing.assert_allclose(
        rows.array, jacobian(prog, method="batched").array, rtol=1e-13, atol=1e-15
    )
    np.testing.assert_allclose(
        rows.array, jacobian(prog, method="numeric").array, rtol=1e-7, atol=1e-8
    )


def test_show_masks_gives_each_mask_and_its_row() -> None:
    prog = "x = tensor([[1., 2.], [3., 4.]], requires_grad=True)\nz = 2 * x * x\n"
    for method in ("rows", "batched"):
        r = jacobian(prog, method=method, show_masks=True)
        assert len(r.masks) == 4
        for i, mk in enumerate(r.masks):
            assert mk.mask.shape == (2, 2) and mk.mask.sum() == 1
            assert mk.mask.reshape(-1)[i] == 1
            np.testing.assert_array_equal(mk.rows["x"], r.array.reshape(4, 2, 2)[i])
    with pytest.raises(UsageError, match="show-masks"):
        jacobian(prog, method="forward", show_masks=True)


# --- user-defined gradients, float32, the program's own backward --------------------------

CUSTOM = """\
x = tensor([0.5, 1.5, -1.0, 2.0, 0.3, 0.7], requires_grad=True)
def square(a):
    return a * a
def square_backward(a, grad):
    return 2 * a * grad
y = square(x) * torch.tensor([1., 2., 3., 4., 5., 6.])
"""


@pytest.mark.parametrize("method", METHODS)
def test_user_defined_gradient(method: str) -> None:
    r = jacobian(CUSTOM, method=method)
    x = np.array([0.5, 1.5, -1.0, 2.0, 0.3, 0.7])
    np.testing.assert_allclose(r.array, np.diag(2 * x * np.arange(1, 7)), rtol=1e-8, atol=1e-9)


def test_user_defined_gradient_numeric_reruns_the_program() -> None:
    # A deliberately wrong user gradient: numeric differentiates the forward pass and differs.
    bad = CUSTOM.replace("return 2 * a * grad", "return 3 * a * grad")
    rows = jacobian(bad, method="rows").array
    num = jacobian(bad, method="numeric").array
    np.testing.assert_allclose(rows, 1.5 * num, rtol=1e-7)


def test_float32_program_keeps_its_dtype() -> None:
    prog = "x = torch.FloatTensor([1., 2., 3., 4., 5., 6.]).requires_grad_()\ny = x.exp() * x\n"
    for m in ANALYTIC:
        r = jacobian(prog, method=m)
        assert r.array.dtype == np.float32
        np.testing.assert_allclose(
            r.array, np.diag(np.exp(np.arange(1, 7.0)) * np.arange(2, 8.0)), rtol=1e-5
        )
    assert jacobian(prog, method="numeric").array.dtype == np.float64


def test_programs_own_backward_does_not_block_the_analysis() -> None:
    prog = (
        "w = tensor([1., -2., 0.5], requires_grad=True)\nloss = (w * w * w).sum()\n"
        "loss.backward()\n"
    )
    for m in METHODS:
        np.testing.assert_allclose(
            jacobian(prog, method=m).array, 3 * np.array([1, 4, 0.25]), rtol=1e-7
        )
    np.testing.assert_allclose(hessian(prog).array, np.diag([6.0, -12.0, 3.0]))


def test_inputs_other_than_wrt_are_left_as_they_were() -> None:
    prog = (
        "x = tensor([1., 2.], requires_grad=True)\nW = tensor([[1., 2.], [3., 4.]], "
        "requires_grad=True)\ny = torch.tanh(W @ x)\n"
    )
    r = gradcli.run(prog)
    for m in METHODS:
        jacobian(r, wrt="x", method=m)
    assert r.tensor("W").requires_grad and r.tensor("y").requires_grad
    assert r.tensor("W").grad is None


# --- Hessians -------------------------------------------------------------------------------


def test_hessian_of_a_non_scalar_is_refused_in_pytorchs_words() -> None:
    with pytest.raises(
        GradcliError, match="grad can be implicitly created only for scalar outputs"
    ):
        hessian(NET)
    with pytest.raises(GradcliError, match="scalar outputs"):
        hvp(NET, v=np.ones(11))


def test_hessian_blocks_for_each_pair_and_zero_for_linear_or_unused() -> None:
    prog = (
        "a = tensor([1., 2.], requires_grad=True)\nb = tensor([3.], requires_grad=True)\n"
        "c = tensor([5., 6.], requires_grad=True)\ny = (a * a).sum() * b.sum() + a.sum()\n"
    )
    h = hessian(prog, wrt=["a", "b", "c"])
    assert set(h.blocks) == {(p, q) for p in "abc" for q in "abc"}
    np.testing.assert_allclose(h.blocks[("a", "a")], 2 * 3 * np.eye(2))
    np.testing.assert_allclose(h.blocks[("a", "b")], [[2.0], [4.0]])
    np.testing.assert_allclose(h.blocks[("b", "a")], [[2.0, 4.0]])
    assert h.blocks[("b", "b")].shape == (1, 1) and h.blocks[("b", "b")][0, 0] == 0
    assert h.unused == ["c"] and not np.any(h.blocks[("c", "a")])
    assert h.matrix.shape == (5, 5) and h.asymmetry == 0.0
    lin = hessian("x = tensor([1., 2.], requires_grad=True)\ny = (3 * x).sum()\n")
    assert not np.any(lin.array) and lin.unused == []
    j = h.to_json()
    assert set(j) >= {"of", "of_shape", "method", "passes", "hessians"}
    assert set(j["hessians"]["a"]) == {"wrt_shape", "matrix"}


def test_hessian_rows_and_numeric_equal_batched() -> None:
    prog = (
        "x = tensor([0.2, -0.4, 0.9, 1.3, -0.8], requires_grad=True)\n"
        "y = torch.logsumexp(torch.outer(x, x), dim=1).prod()\n"
    )
    b = hessian(prog)
    np.testing.assert_allclose(hessian(prog, method="rows").array, b.array, rtol=1e-13)
    np.testing.assert_allclose(hessian(prog, method="numeric").array, b.array, rtol=1e-6, atol=1e-7)
    assert b.passes == 2 and hessian(prog, method="rows").passes == 6


# --- limits -------------------------------------------------------------------------------


def test_jacobian_entries_limit_at_its_boundary(monkeypatch: pytest.MonkeyPatch) -> None:
    prog = "x = tensor([1., 2., 3.], requires_grad=True)\ny = torch.cat([x, x]) * 2\n"  # 6 x 3
    monkeypatch.setenv("GRADCLI_JACOBIAN_ENTRIES", "18")
    for m in METHODS:
        assert jacobian(prog, method=m).array.shape == (6, 3)
    monkeypatch.setenv("GRADCLI_JACOBIAN_ENTRIES", "17")
    for m in METHODS:
        with pytest.raises(LimitError) as e:
            jacobian(prog, method=m)
        assert "18" in e.value.message and "17" in e.value.message
        assert "jacobian_entries" in (e.value.expected or "")
        assert "GRADCLI_JACOBIAN_ENTRIES" in (e.value.hint or "")
    monkeypatch.setenv("GRADCLI_JACOBIAN_ENTRIES", "8")
    with pytest.raises(LimitError, match="Hessian"):
        hessian("x = tensor([1., 2., 3.], requires_grad=True)\ny = (x ** 3).sum()\n")
    monkeypatch.setenv("GRADCLI_JACOBIAN_ENTRIES", "9")
    assert hessian(
        "x = tensor([1., 2., 3.], requires_grad=True)\ny = (x ** 3).sum()\n"
    ).array.shape == (3, 3)


def test_bad_arguments() -> None:
    with pytest.raises(UsageError, match="unknown method"):
        jacobian(NET, method="sideways")
    with pytest.raises(UsageError, match="unknown Hessian method"):
        hessian(SCALAR, method="forward")
    with pytest.raises(GradcliError, match="no tensor named `nope`"):
        jacobian(NET, wrt="nope")
    with pytest.raises(GradcliError, match="v has 2 values"):
        hvp(SCALAR, wrt="x", v=[1, 2])
    with pytest.raises(GradcliError, match="blocks"):
        _ = jacobian(NET).array


# --- the library's surface ------------------------------------------------------------------


def test_package_level_functions() -> None:
    prog = "x = tensor([1., 2.], requires_grad=True)\ny = x * x\n"
    assert gradcli.jacobian(prog).array.tolist() == [[2.0, 0.0], [0.0, 4.0]]
    assert gradcli.hessian is hessian
    assert NUMERIC_STEP == pytest.approx(6.055e-6, rel=1e-3)


def test_jacobian_of_tensors() -> None:
    x = Tensor(np.array([1.0, 2.0, 3.0]), requires_grad=True)
    w = Tensor(np.array([0.5, 0.25, 2.0]), requires_grad=True)
    y = (x * w).sum() * x
    for m in METHODS:
        r = jacobian_of(y, {"x": x, "w": w}, m)
        want = np.outer(x.data, w.data) + np.eye(3) * float((x.data * w.data).sum())
        np.testing.assert_allclose(r.blocks["x"].array, want, rtol=1e-7)


# --- forward mode, op by op -------------------------------------------------------------------


def _cases() -> list[tuple[str, int]]:
    return [(name, i) for name, op in sorted(ops.REGISTRY.items()) for i in range(len(op.samples))]


# Records whose gradient's gradient gradcli refuses (the forward mode here differentiates the
# gradient): grid_sample's grid gradient, a record of its double backward (a third derivative).
# ctc_loss: PyTorch's CtcLossBackward0 has no derivative (and no forward mode) itself;
# pdist: neither has PyTorch's _pdist_backward (nor _pdist_forward a forward-mode rule)
# segment_reduce: PyTorch's _segment_reduce_backward has no derivative either.
NO_SECOND_VJP = {"grid_sample_grid_grad", "ctc_loss", "pdist", "segment_reduce"}


# Records whose forward-mode rule is PyTorch's, which is not the derivative its gradient is
# (gradcli mirrors the values; tests/ops/test_dual.py says so too): cholesky_inverse's
# jvp multiplies in another order (pytorch/pytorch#196682); logcumsumexp's (logcumsumexp_jvp)
# divides by cumsum(exp(x - max)) + 1e-13, a relative 1e-12 off where that sum is small;
# cholesky's (cholesky_jvp) reads the tangent as given, where the gradient takes the symmetric
# part of a perturbation: a one-hot tangent off the diagonal differs (tests/ops/
# test_cholesky_jvp.py checks it against PyTorch's jacfwd); triangular_solve's reads A's tangent
# off the triangle too (tests/ops/test_triangular_solve_jvp.py).
# as_strided_scatter's forward mode is the derivative and its gradient PyTorch's, which is not
# (tests/ops/test_ops.py's BEYOND_DERIVATIVE). binary_cross_entropy's gradient is PyTorch's
# BinaryCrossEntropyBackwardBackward0 node, whose own gradient (the forward mode here) is
# PyTorch's double-backward formula: it adds 1e-12 to p and 1 - p, a relative 1e-11 off.
FORWARD_AS_PYTORCH = frozenset(
    {
        "as_strided_scatter",
        "binary_cross_entropy",
        "cholesky",
        "cholesky_inverse",
        "logcumsumexp",
        "triangular_solve",
    }
)


@pytest.mark.parametrize("name", sorted(ops.REGISTRY))
def test_forward_mode_and_rows_match_batched_for_every_op_sample(name: str) -> None:
    if name in NO_SECOND_VJP:
        pytest.skip("its gradient is not differentiable again in gradcli (a third derivative)")
    op = ops.REGISTRY[name]
    for i, s in enumerate(op.samples):
        arrays = gc.make_inputs(s, seed=i)
        pos = gc.diff_positions(op, s, arrays)
        if not pos:
            continue
        ts = gc.tensors(arrays, pos)
        out = apply(op, *ts, **s.params)
        if not out.requires_grad or out.dtype.kind != "f":
            continue
        inputs = {f"in{k}": ts[k] for k in pos}
        want = jacobian_of(out, inputs, "batched").matrix
        for m in ("forward", "rows"):
            if m == "forward" and name in FORWARD_AS_PYTORCH:
                continue
            got = jacobian_of(out, inputs, m).matrix
            np.testing.assert_allclose(
                got,
                want,
                rtol=1e-12,
                atol=1e-13,
                err_msg=f"{name} sample {i} {gc.describe(s)}: {m}",
            )


def test_numeric_rerun_must_reproduce_the_output() -> None:
    prog = CUSTOM.replace("y = square(x)", "y = torch.randn(6) + square(x)")
    r = gradcli.run(prog, seed=3)
    # The run knows how it was made (its seed): re-running it reproduces it.
    np.testing.assert_allclose(
        jacobian(r, method="numeric").array, jacobian(r, method="rows").array, rtol=1e-7
    )
    r.settings["seed"] = 4  # a run that re-running does not reproduce
    with pytest.raises(GradcliError, match="does not reproduce `y`"):
        jacobian(r, method="numeric")


def test_rows_falls_back_to_fresh_passes_when_the_replay_disagrees(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gradcli.analysis.jacobian as mod

    calls: list[int] = []
    literal = mod._literal_pass

    def counted(*args: object) -> list:
        calls.append(1)
        return literal(*args)

    monkeypatch.setattr(mod, "_literal_pass", counted)
    monkeypatch.setattr(mod._Tape, "replay", lambda self, mask: [r + 7.0 for r in self.first])
    prog = "x = torch.linspace(0.1, 1.2, 12).requires_grad_()\ny = torch.sin(x) * x\n"
    got = jacobian(prog, method="rows")
    np.testing.assert_allclose(got.array, jacobian(prog, method="batched").array, rtol=1e-14)
    assert len(calls) == 1 + 12 and got.passes == 12  # the probe, then a fresh pass per row
