"""float32 gradients PyTorch computes in an order of its own, to the bit (recorded with torch
2.13: tests/ops/data/record_backward_order.py): a matrix product whose operand is column-major
(nn.Linear on a 1 x 1 input, a PINN's boundary point; a transposed matrix) gets its gradient as
a transposed product (mm_mat1_backward / mm_mat2_backward), and a vector norm's gradient is
norm_backward's `grad * (x / norm)` (p = 2) or `x|x|^(p-2) * (grad / norm^(p-1))`, whatever
the upstream gradient. Each holds with create_graph=True too."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import gradcli
from gradcli.surface import composite as C
from gradcli.surface import linalg as LA
from gradcli.surface import names  # noqa: F401 - installs the tensor methods

DATA = json.loads((Path(__file__).parent / "data" / "backward_order.json").read_text())


def _draw(seed: list[int], *shapes) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(np.float32) for s in shapes]


def _hex(t: gradcli.Tensor) -> str:
    return np.ascontiguousarray(t.numpy()).tobytes().hex()


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize(
    "case", DATA["mm"], ids=[f"{c['fin']}-{c['width']}-{c['rows']}" for c in DATA["mm"]]
)
def test_matrix_product_gradients_are_pytorchs(case: dict, create_graph: bool) -> None:
    fin, width, rows = case["fin"], case["width"], case["rows"]
    x, w, g, a = _draw([fin, width, rows], (rows, fin), (width, fin), (rows, width), (fin, width))
    tx = gradcli.Tensor(x, requires_grad=True)
    tw = gradcli.Tensor(w, requires_grad=True)
    out = C.linear(tx, tw)
    dx, dw = gradcli.grad(out, (tx, tw), gradcli.Tensor(g), create_graph=create_graph)
    assert (_hex(dx), _hex(dw)) == (case["dx"], case["dw"])
    txt = gradcli.Tensor(np.ascontiguousarray(x.T)).t().requires_grad_()
    ta = gradcli.Tensor(a, requires_grad=True)
    dxt, da = gradcli.grad(txt @ ta, (txt, ta), gradcli.Tensor(g), create_graph=create_graph)
    assert (_hex(dxt), _hex(da)) == (case["dxt"], case["da"])


def test_the_data_tells_the_transposed_product_apart() -> None:
    """For some 1 x 1 inputs the plain product `g @ w` rounds otherwise: the test above would
    fail gradcli's former order."""
    apart = 0
    for case in DATA["mm"]:
        if case["rows"] != 1 or case["fin"] != 1 or case["width"] == 1:
            continue
        x, w, g, _ = _draw(
            [1, case["width"], 1],
            (1, 1),
            (case["width"], 1),
            (1, case["width"]),
            (1, case["width"]),
        )
        plain = gradcli.Tensor(g) @ gradcli.Tensor(w)
        apart += _hex(plain) != case["dx"]
    assert apart >= 1


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize(
    "case", DATA["norm"], ids=[f"{c['p']}-{c['shape']}-{c['dim']}" for c in DATA["norm"]]
)
def test_norm_gradients_are_pytorchs(case: dict, create_graph: bool) -> None:
    p, shape, dim = case["p"], case["shape"], case["dim"]
    (x,) = _draw([len(shape), shape[0], int(p * 10)], shape)
    if p == 2.0 and len(shape) == 2:
        x[0] = 0
    tx = gradcli.Tensor(x, requires_grad=True)
    n = LA.vector_norm(tx, p, dim=dim)
    (gup,) = _draw([7, *shape], n.shape)
    (dx,) = gradcli.grad(n, tx, gradcli.Tensor(gup), create_graph=create_graph)
    if p not in (1.0, 2.0):
        # the float32 p-norm itself (the forward) is not PyTorch's to the bit for other orders
        want = np.frombuffer(bytes.fromhex(case["dx"]), np.float32).reshape(dx.shape)
        np.testing.assert_allclose(dx.numpy(), want, rtol=2e-6, atol=1e-7)
        return
    assert _hex(dx) == case["dx"]


def test_norm_second_derivative_matches_central_differences() -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 5))
    v, u = rng.standard_normal(3), rng.standard_normal((3, 5))

    def first(xv: np.ndarray, create: bool = False) -> tuple:
        t = gradcli.Tensor(xv, requires_grad=True)
        for p in (2.0, 3.0, 1.5):
            (g,) = gradcli.grad(
                LA.vector_norm(t, p, dim=1), t, gradcli.Tensor(v), create_graph=create
            )
            yield t, p, g

    for (t, p, g), k in zip(first(x, True), range(3)):
        (h,) = gradcli.grad((g * gradcli.Tensor(u)).sum(), t)
        eps = 1e-6
        fd = np.empty_like(x)
        for i in np.ndindex(x.shape):
            vals = []
            for s in (1, -1):
                xp = x.copy()
                xp[i] += s * eps
                gp = list(first(xp))[k][2].numpy()
                vals.append(float((gp * u).sum()))
            fd[i] = (vals[0] - vals[1]) / (2 * eps)
        np.testing.assert_allclose(h.numpy(), fd, rtol=1e-6, atol=1e-8), p


def test_the_data_tells_norm_backwards_orders_apart() -> None:
    """`(g * x) / norm`, gradcli's former order, differs from the recorded `g * (x / norm)`."""
    apart = 0
    for case in DATA["norm"]:
        if case["p"] != 2.0:
            continue
        shape, dim = case["shape"], case["dim"]
        (x,) = _draw([len(shape), shape[0], 20], shape)
        if len(shape) == 2:
            x[0] = 0
        n = LA.vector_norm(gradcli.Tensor(x), 2.0, dim=dim, keepdim=True).numpy()
        (gup,) = _draw([7, *shape], LA.vector_norm(gradcli.Tensor(x), 2.0, dim=dim).shape)
        with np.errstate(all="ignore"):
            old = np.where(n == 0, np.float32(0), (np.expand_dims(gup, dim) * x) / n)
        apart += _hex(gradcli.Tensor(old.astype(np.float32))) != case["dx"]
    assert apart >= 2


CHAIN = {
    "softmax": lambda t, d: t.softmax(d),
    "log_softmax": lambda t, d: t.log_softmax(d),
    "prod": lambda t, d: t.prod(d) if d is not None else t.prod(),
}


@pytest.mark.parametrize(
    "case", DATA["chain"], ids=[f"{c['op']}-{c['shape']}-{c['dim']}" for c in DATA["chain"]]
)
def test_create_graph_chains_are_pytorchs(case: dict) -> None:
    op, shape, dim = case["op"], case["shape"], case["dim"]
    x, _, w2, w3 = _draw([len(shape), shape[0], 11], shape, shape, shape, shape)
    if op == "prod":
        x = np.where(np.abs(x) < 0.3, np.float32(0.7), x)
    tx = gradcli.Tensor(x, requires_grad=True)
    y = CHAIN[op](tx, dim)
    (wy,) = _draw([3, *shape], y.shape)
    (g,) = gradcli.grad(y, tx, gradcli.Tensor(wy), create_graph=True)
    (h,) = gradcli.grad((g * gradcli.Tensor(w2)).sum(), tx, create_graph=True)
    (t,) = gradcli.grad((h * gradcli.Tensor(w3)).sum(), tx)
    assert g.grad_fn.name() == case["g_fn"]
    exact = [g, h, t]
    if op != "log_softmax":
        # softmax's and prod's third derivatives add their terms in another order than
        # PyTorch's engine: equal to rounding (README, "Where gradcli differs")
        exact.pop()
        _close(t, case["t"])
    if op == "prod" and shape[-1] > 32:
        # a float32 product of more than 32 elements is not PyTorch's to the bit (its lanes)
        exact = []
        for got, key in ((g, "g"), (h, "h")):
            _close(got, case[key])
    for got, key in zip(exact, ("g", "h", "t")):
        assert _hex(got) == case[key], key


def _close(got: gradcli.Tensor, recorded: str) -> None:
    want = np.frombuffer(bytes.fromhex(recorded), np.float32).reshape(got.shape)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("log", [False, True])
def test_softmax_second_derivative_matches_central_differences(log: bool) -> None:
    rng = np.random.default_rng(4)
    x, v, u = (rng.standard_normal((3, 5)) for _ in range(3))

    def first(xv: np.ndarray, create: bool = False) -> tuple:
        t = gradcli.Tensor(xv, requires_grad=True)
        y = t.log_softmax(1) if log else t.softmax(1)
        (g,) = gradcli.grad(y, t, gradcli.Tensor(v), create_graph=create)
        return t, g

    t, g = first(x, True)
    (h,) = gradcli.grad((g * gradcli.Tensor(u)).sum(), t)
    eps = 1e-6
    fd = np.empty_like(x)
    for i in np.ndindex(x.shape):
        vals = []
        for s in (1, -1):
            xp = x.copy()
            xp[i] += s * eps
            vals.append(float((first(xp)[1].numpy() * u).sum()))
        fd[i] = (vals[0] - vals[1]) / (2 * eps)
    np.testing.assert_allclose(h.numpy(), fd, rtol=1e-6, atol=1e-8)
