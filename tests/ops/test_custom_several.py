"""The engine side of a custom `torch.autograd.Function` with several outputs
(`ops.custom.custom_apply` given a forward that returns a tuple): one gradient per output,
`mark_non_differentiable`, `set_materialize_grads(False)`, double backward; checked against
central differences and, where torch is installed, against the same Function in PyTorch."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core.autograd import grad
from gradcli.core.tensor import Tensor
from gradcli.ops.custom import custom_apply
from gradcli.surface import names  # noqa: F401 - installs the tensor methods

X = np.array([0.5, -1.0, 2.0])


def sinh_cosh(x: Tensor, materialize: bool = True, seen: list | None = None) -> tuple:
    """sinh and cosh of x, with the user's backward written from exp (differentiable)."""

    def forward() -> tuple:
        return Tensor(np.sinh(x.data)), Tensor(np.cosh(x.data))

    def backward(gs: Tensor | None, gc: Tensor | None) -> tuple:
        if seen is not None:
            seen.append((gs is None, gc is None))
        e, f = x.exp(), (-x).exp()
        total = 0
        if gs is not None:
            total = total + gs * (e + f) * 0.5
        if gc is not None:
            total = total + gc * (e - f) * 0.5
        return (total,)

    return custom_apply(
        "SinhCosh",
        [x],
        forward,
        backward,
        label="SinhCoshBackward",
        materialize=lambda: materialize,
    )


def loss(s: Tensor, c: Tensor) -> Tensor:
    return (s * 2 + c * c).sum()


def test_one_gradient_per_output() -> None:
    x = Tensor(X.copy(), requires_grad=True)
    s, c = sinh_cosh(x)
    assert s.grad_fn.name() == c.grad_fn.name() == "SinhCoshBackward"
    loss(s, c).backward()

    def f(v: np.ndarray) -> float:
        return float((2 * np.sinh(v) + np.cosh(v) ** 2).sum())

    h = 1e-6
    fd = [(f(X + h * e) - f(X - h * e)) / (2 * h) for e in np.eye(3)]
    np.testing.assert_allclose(x.grad.data, fd, rtol=1e-8)


def test_materialize_false_passes_none_for_an_unused_output() -> None:
    seen: list = []
    x = Tensor(X.copy(), requires_grad=True)
    s, _ = sinh_cosh(x, materialize=False, seen=seen)
    s.sum().backward()
    seen_default: list = []
    x2 = Tensor(X.copy(), requires_grad=True)
    s2, _ = sinh_cosh(x2, seen=seen_default)
    s2.sum().backward()
    assert seen == [(False, True)] and seen_default == [(False, False)]
    np.testing.assert_allclose(x.grad.data, np.cosh(X), rtol=1e-12)


def test_a_non_differentiable_output() -> None:
    x = Tensor(X.copy(), requires_grad=True)
    order = Tensor(np.argsort(X))

    def forward() -> tuple:
        return Tensor(np.sort(x.data)), order

    def backward(gv: Tensor, gi: Tensor) -> tuple:
        placed = np.zeros(3)
        placed[order.data] = gv.data
        return (Tensor(placed),)

    values, idx = custom_apply("Sort", [x], forward, backward, non_differentiable=lambda: [order])
    assert values.requires_grad and not idx.requires_grad
    (values * Tensor(np.array([1.0, 2.0, 3.0]))).sum().backward()
    want = np.zeros(3)
    want[np.argsort(X)] = [1.0, 2.0, 3.0]
    np.testing.assert_array_equal(x.grad.data, want)


def test_double_backward_through_the_users_backward() -> None:
    x = Tensor(X.copy(), requires_grad=True)
    s, c = sinh_cosh(x)
    (g,) = grad(loss(s, c), [x], create_graph=True)
    (gg,) = grad(g.sum(), [x])
    # d/dx [2 cosh + 2 cosh sinh] = 2 sinh + 2 cosh(2x)
    np.testing.assert_allclose(gg.data, 2 * np.sinh(X) + 2 * np.cosh(2 * X), rtol=1e-10)


def test_same_as_torch() -> None:
    torch = pytest.importorskip("torch")

    class SinhCosh(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.sinh(), x.cosh()

        @staticmethod
        def backward(ctx, gs, gc):
            (x,) = ctx.saved_tensors
            return gs * x.cosh() + gc * x.sinh()

    xt = torch.tensor(X, requires_grad=True)
    st, ct = SinhCosh.apply(xt)
    (gt,) = torch.autograd.grad(loss(st, ct), [xt], create_graph=True)
    (ggt,) = torch.autograd.grad(gt.sum(), [xt])
    x = Tensor(X.copy(), requires_grad=True)
    s, c = sinh_cosh(x)
    (g,) = grad(loss(s, c), [x], create_graph=True)
    (gg,) = grad(g.sum(), [x])
    np.testing.assert_allclose(g.data, gt.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(gg.data, ggt.numpy(), rtol=1e-10)


def test_once_differentiable_gradients_do_not_require_grad() -> None:
    x = Tensor(X.copy(), requires_grad=True)

    def forward() -> Tensor:
        return Tensor(x.data**3)

    def backward(g: Tensor) -> tuple:
        return (g * 3 * x**2,)

    once = custom_apply("Cube", [x], forward, backward, once_differentiable=True)
    (g,) = grad(once.sum(), [x], create_graph=True)
    twice = custom_apply("Cube", [x], forward, backward)
    (g2,) = grad(twice.sum(), [x], create_graph=True)
    np.testing.assert_allclose(g.data, 3 * X**2, rtol=1e-12)
    assert not g.requires_grad and g2.requires_grad
