"""`torch.autograd.functional` and `torch.func` on gradcli's engine: every result checked
against central finite differences in float64 (tight enough that a rule 0.1% off fails), the
result structures PyTorch returns, what stays differentiable (create_graph, an enclosing
transform, a closure over a tensor that requires grad) and what leaves detached."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli.surface.names  # noqa: F401  (installs the tensor methods)
from gradcli.base.errors import GradcliError
from gradcli.core.tensor import Tensor, no_grad
from gradcli.ops import REGISTRY
from gradcli.surface import func as TF
from gradcli.surface import functional as F
from gradcli.surface import functional_ad as AF

RNG = np.random.default_rng(7)
STEP = 1e-6
TOL = 1e-7  # central differences in float64 at h=1e-6 are good to about 1e-9 here


def _t(*shape: int, requires_grad: bool = False) -> Tensor:
    return Tensor(RNG.uniform(-1.5, 1.5, size=shape), requires_grad=requires_grad)


def _flat_outputs(fn, xs) -> np.ndarray:
    with no_grad():
        out = fn(*xs)
    outs = out if isinstance(out, tuple) else (out,)
    return np.concatenate([np.asarray(o.data, dtype=np.float64).reshape(-1) for o in outs])


def numjac(fn, xs: tuple, k: int) -> np.ndarray:
    """d (all outputs, flattened) / d xs[k] by central differences: (n_out, n_in)."""
    x = xs[k].data
    cols = []
    for i in range(x.size):
        e = np.zeros(x.size)
        e[i] = STEP
        plus = list(xs)
        minus = list(xs)
        plus[k] = Tensor(x + e.reshape(x.shape))
        minus[k] = Tensor(x - e.reshape(x.shape))
        cols.append((_flat_outputs(fn, plus) - _flat_outputs(fn, minus)) / (2 * STEP))
    return np.stack(cols, axis=1)


def close(a, b) -> None:
    a = np.asarray(a.data if isinstance(a, Tensor) else a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    np.testing.assert_allclose(a.reshape(b.shape), b, rtol=TOL, atol=TOL)


def f_two(a: Tensor, b: Tensor) -> tuple[Tensor, Tensor]:
    return (a * b).sin() + a.exp() * b, (a.tanh() * b).sum()


def scalar(a: Tensor, b: Tensor) -> Tensor:
    return ((a * b).sin() * a.exp()).sum() + (b**3).sum() * a.sum()


# --- torch.autograd.functional --------------------------------------------------------------


@pytest.mark.parametrize("strategy", ["reverse-mode", "forward-mode"])
def test_jacobian_blocks_match_differences(strategy):
    a, b = _t(3), _t(3)
    jac = AF.jacobian(f_two, (a, b), vectorize=True, strategy=strategy)
    assert len(jac) == 2 and all(len(row) == 2 for row in jac)
    for k in range(2):
        num = numjac(f_two, (a, b), k)
        close(jac[0][k], num[:3])
        assert jac[0][k].shape == (3, 3)
        close(jac[1][k], num[3:])
        assert jac[1][k].shape == (3,)
        assert not jac[0][k].requires_grad


def test_forward_jacobian_stays_on_the_graph_of_weights_the_function_closes_over():
    # The input does not require grad, the weight does: PyTorch's forward formula for x * w
    # reads w, so the Jacobian diag(w) is on w's graph; d sum(J**2) / dw = 2 w.
    x, w = _t(3), _t(3, requires_grad=True)
    jac = AF.jacobian(lambda t: (t * w).sin(), x, vectorize=True, strategy="forward-mode")
    num = numjac(lambda t: (t * w).sin(), (x,), 0)
    close(jac, num)
    assert jac.requires_grad and jac.grad_fn is not None

    def total(wv: Tensor) -> Tensor:
        return (
            AF.jacobian(lambda t: (t * wv).sin(), x, vectorize=True, strategy="forward-mode") ** 2
        ).sum()

    total(w).backward()
    close(w.grad, numjac(total, (Tensor(w.data),), 0).reshape(-1))
    # no tangent reads a weight: a plain tensor, as in PyTorch
    plain = AF.jacobian(lambda t: t.relu() + w.sum(), x, vectorize=True, strategy="forward-mode")
    assert not plain.requires_grad


def test_jacobian_of_one_input_one_output_is_a_tensor():
    x = _t(2, 3)
    j = AF.jacobian(lambda t: t.exp().sum(dim=1), x)
    assert isinstance(j, Tensor) and j.shape == (2, 2, 3)
    close(j, numjac(lambda t: t.exp().sum(dim=1), (x,), 0))


@pytest.mark.parametrize("outer", ["reverse-mode", "forward-mode"])
def test_hessian_matches_differences_of_the_gradient(outer):
    a, b = _t(3), _t(2)

    def g(u, v):
        return (u.sin() * u).sum() * (v**2).sum()

    hs = AF.hessian(g, (a, b), vectorize=True, outer_jacobian_strategy=outer)

    def grad_of(u, v):
        return AF.vjp(g, (u, v))[1]

    for i in range(2):
        num = numjac(grad_of, (a, b), i)  # rows: d(grad) ; columns: input i
        n0 = a.data.size
        close(hs[0][i], num[:n0])
        close(hs[1][i], num[n0:])


def test_vjp_jvp_hvp_vhp_match_differences():
    a, b = _t(3), _t(3)
    J = np.concatenate([numjac(f_two, (a, b), 0), numjac(f_two, (a, b), 1)], axis=1)
    u = (_t(3), _t())
    _, got = AF.vjp(f_two, (a, b), u)
    want = np.concatenate([u[0].data, u[1].data.reshape(1)]) @ J
    close(got[0], want[:3])
    close(got[1], want[3:])
    v = (_t(3), _t(3))
    _, got = AF.jvp(f_two, (a, b), v)
    want = J @ np.concatenate([v[0].data, v[1].data])
    close(got[0], want[:3])
    close(got[1], want[3:])

    def grad_of(x, y):
        return AF.vjp(scalar, (x, y))[1]

    H = np.concatenate([numjac(grad_of, (a, b), 0), numjac(grad_of, (a, b), 1)], axis=1)
    w = np.concatenate([v[0].data, v[1].data])
    for fn in (AF.hvp, AF.vhp):
        value, got = fn(scalar, (a, b), v)
        close(value, _flat_outputs(scalar, (a, b)).reshape(()))
        close(got[0], (H @ w)[:3])
        close(got[1], (H @ w)[3:])


def test_create_graph_keeps_the_result_differentiable():
    w = Tensor(np.array([0.5, -1.0]), requires_grad=True)
    x = Tensor(np.array([1.0, 2.0]))

    def model(t):
        return (w * t).tanh().sum()

    J = AF.jacobian(model, x, create_graph=True)
    assert J.requires_grad and J.node.name() == "ViewBackward0"
    (J**2).sum().backward()

    # d/dw sum_i (w_i sech^2(w_i x_i))^2, by differences over w
    def penalty(ww):
        return ((ww * (1 - (ww * x).tanh() ** 2)) ** 2).sum()

    close(w.grad, numjac(penalty, (Tensor(w.data.copy()),), 0).reshape(-1))
    assert not AF.jacobian(model, x).requires_grad


def test_strict_and_argument_errors_are_pytorchs():
    x = _t(2)
    with pytest.raises(GradcliError, match="Output 0 of the user-provided function does not"):
        AF.jacobian(lambda t: x * 2, x, strict=True)
    with pytest.raises(GradcliError, match="must be either a Tensor or a tuple of Tensors"):
        AF.jacobian(lambda t: t, [x])
    with pytest.raises(GradcliError, match="should contain a single element"):
        AF.hessian(lambda t: t * 2, x)
    z = AF.jacobian(lambda t: x * 2, x)  # independent of the input: zeros
    assert np.all(z.data == 0) and z.shape == (2, 2)


# --- torch.func -----------------------------------------------------------------------------


def test_grad_and_argnums_match_differences():
    a, b = _t(3), _t(3)
    g = TF.grad(scalar)(a, b)
    close(g, numjac(scalar, (a, b), 0).reshape(-1))
    ga, gb = TF.grad(scalar, argnums=(0, 1))(a, b)
    close(gb, numjac(scalar, (a, b), 1).reshape(-1))
    (g2, value) = TF.grad_and_value(scalar, argnums=1)(a, b)
    close(g2, gb.data)
    close(value, _flat_outputs(scalar, (a, b)).reshape(()))
    assert not g.requires_grad and not value.requires_grad


def test_grad_of_grad_is_the_second_derivative():
    x = Tensor(np.array(0.7))

    def f(t):
        return t.sin() * t.exp()

    d1 = TF.grad(f)
    d2 = TF.grad(d1)
    close(d2(x), numjac(d1, (x,), 0).reshape(()))
    d3 = TF.grad(d2)
    close(d3(x), numjac(d2, (x,), 0).reshape(()))


def test_jacrev_jacfwd_hessian_match_differences():
    a, b = _t(3), _t(3)
    for jac in (TF.jacrev, TF.jacfwd):
        ja, jb = jac(f_two, argnums=(0, 1))(a, b)
        num0, num1 = numjac(f_two, (a, b), 0), numjac(f_two, (a, b), 1)
        close(ja[0], num0[:3])
        close(ja[1], num1[:3])  # ((d out0/da, d out0/db), (d out1/da, d out1/db))
        close(jb[0], num0[3:])
        close(jb[1], num1[3:])
    H = TF.hessian(scalar)(a, b)
    close(H, numjac(TF.grad(scalar), (a, b), 0))
    H2 = TF.jacrev(TF.jacrev(scalar))(a, b)
    close(H2, H.data)


def test_vjp_and_jvp_with_pytrees_match_differences():
    p = {"w": _t(3), "c": _t()}

    def f(q, x):
        return (q["w"] * x).sin() + q["c"]

    x = _t(3)
    out, fn = TF.vjp(f, p, x)
    u = _t(3)
    gp, gx = fn(u)
    assert set(gp) == {"w", "c"}
    close(gx, u.data @ numjac(lambda xx: f(p, xx), (x,), 0))
    close(gp["w"], u.data @ numjac(lambda ww: f({"w": ww, "c": p["c"]}, x), (p["w"],), 0))
    v = _t(3)
    _, tan = TF.jvp(lambda xx: f(p, xx), (x,), (v,))
    close(tan, numjac(lambda xx: f(p, xx), (x,), 0) @ v.data)


def test_closure_over_the_same_tensor_is_a_constant():
    # grad(lambda y: (y * x).sum())(x) is x, not 2x: the level keeps its input apart.
    x = _t(3, requires_grad=True)
    g = TF.grad(lambda y: (y * x).sum())(x)
    close(g, x.data)
    # and the result stays differentiable with respect to the program's x
    assert g.requires_grad


def test_results_leave_detached_unless_something_outside_requires_grad():
    x = _t(3)
    w = _t(3, requires_grad=True)
    assert not TF.grad(lambda t: (t**2).sum())(x).requires_grad
    g = TF.grad(lambda t: (w * t**2).sum())(x)
    assert g.requires_grad
    g.sum().backward()
    close(w.grad, 2 * x.data)
    assert not TF.jacrev(lambda t: t.sin())(x).requires_grad
    assert not TF.vmap(lambda t: t * 2)(x).requires_grad


def test_vmap_of_grad_is_the_per_sample_gradient():
    w = _t(2)
    X, Y = _t(4, 2), _t(4)

    def loss(ww, x, y):
        return ((x * ww).sum() - y) ** 2

    per = TF.vmap(TF.grad(loss), in_dims=(None, 0, 0))(w, X, Y)
    assert per.shape == (4, 2)
    for i in range(4):
        row = numjac(lambda ww, i=i: loss(ww, X[i], Y[i]), (w,), 0).reshape(-1)
        close(per[i], row)


def test_vmap_in_dims_out_dims_and_structures():
    x = _t(2, 3)
    got = TF.vmap(lambda r: r.sum(), in_dims=1)(x)
    close(got, x.data.sum(axis=0))
    a, s = TF.vmap(lambda r: (r * 2, r.sum()), out_dims=(1, 0))(x)
    close(a, (x.data * 2).T)
    close(s, x.data.sum(axis=1))
    nested = TF.vmap(TF.vmap(lambda e: e * 10))(x)
    close(nested, x.data * 10)
    with pytest.raises(GradcliError, match="same size in the mapped dimension"):
        TF.vmap(F.dot)(x, _t(3, 3))


def test_a_rule_off_by_a_tenth_of_a_percent_fails_the_comparison():
    op = REGISTRY["sin"]
    saved = op.vjp
    op.vjp = lambda g, out, *a, **p: tuple(
        None if r is None else r * 1.001 for r in saved(g, out, *a, **p)
    )
    try:
        x = _t(3)
        with pytest.raises(AssertionError):
            close(TF.jacrev(lambda t: t.sin())(x), numjac(lambda t: t.sin(), (x,), 0))
    finally:
        op.vjp = saved


def test_keywords_reach_grad_and_vmap_but_not_the_jacobian_wrappers():
    # PyTorch's grad and vmap pass keywords on to the function; jacrev, jacfwd, hessian and
    # linearize's jvp_fn take positional arguments only and Python names the function
    def g(x, scale=1.0):
        return (x * scale).sin().sum()

    x = _t(3)
    np.testing.assert_allclose(TF.grad(g)(x, scale=2.0).data, 2 * np.cos(2 * x.data))
    np.testing.assert_allclose(TF.vmap(g)(x[:, None], scale=2.0).data, np.sin(2 * x.data))
    for transform in (TF.jacrev, TF.jacfwd, TF.hessian):
        with pytest.raises(GradcliError, match=r"^g\(\) got an unexpected keyword argument 'sc"):
            transform(g)(x, scale=2.0)
    _, jvp_fn = TF.linearize(lambda t: t * 2.0, x)
    with pytest.raises(GradcliError, match=r"linearize.<locals>.jvp_fn\(\) got an unexpected"):
        jvp_fn(x, k=1)
