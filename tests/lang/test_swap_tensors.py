"""torch.utils.swap_tensors: the objects keep their identity and exchange contents; a gradient
taken after the swap is the gradient with respect to the swapped-in values."""

from __future__ import annotations

import numpy as np

from tests.helpers.programs import error, out

PROGRAM = """
import torch
w = torch.tensor([[0.3, -1.2, 0.7]], dtype=torch.float64, requires_grad=True)
v = torch.tensor([[1.5, 0.2], [-0.4, 0.9], [0.6, -2.0]], dtype=torch.float64,
                 requires_grad=True)
torch.utils.swap_tensors(w, v)
x = torch.tensor([0.5, -1.0], dtype=torch.float64)
y = torch.tanh(w @ x).pow(2).sum() + (v * v).sum()
y.backward()
print(w.shape, v.shape)
print(w.grad.tolist())
print(v.grad.tolist())
"""


def _f(w: np.ndarray, v: np.ndarray) -> float:
    x = np.array([0.5, -1.0])
    return float((np.tanh(w @ x) ** 2).sum() + (v * v).sum())


def _fd(f, a: np.ndarray, h: float = 1e-6) -> np.ndarray:
    g = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        p, m = a.copy(), a.copy()
        p[i] += h
        m[i] -= h
        g[i] = (f(p) - f(m)) / (2 * h)
    return g


def test_gradients_follow_the_swapped_contents() -> None:
    lines = out(PROGRAM).splitlines()
    assert lines[0] == "torch.Size([3, 2]) torch.Size([1, 3])"
    w = np.array([[1.5, 0.2], [-0.4, 0.9], [0.6, -2.0]])
    v = np.array([[0.3, -1.2, 0.7]])
    gw = np.array(eval(lines[1]))  # noqa: S307 (a list of floats the program printed)
    gv = np.array(eval(lines[2]))  # noqa: S307
    np.testing.assert_allclose(gw, _fd(lambda a: _f(a, v), w), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(gv, _fd(lambda a: _f(w, a), v), rtol=1e-7, atol=1e-9)


def test_a_graph_recorded_before_the_swap_is_poisoned() -> None:
    e = error(
        "import torch\nx = torch.ones(2, requires_grad=True)\n"
        "y = torch.ones(2, requires_grad=True)\n"
        "z = (x * 3).sum()\ntorch.utils.swap_tensors(x, y)\nz.backward()\n"
    )
    assert "poisoned by swap_tensors" in str(e)


def test_a_tensor_with_a_live_view_is_refused_as_pytorch() -> None:
    e = error(
        "import torch\na = torch.zeros(4)\nv = a[:2]\ntorch.utils.swap_tensors(a, torch.ones(3))\n"
    )
    assert "not possible to get the gradient edge" in str(e)
    e = error(
        "import torch\na = torch.zeros(4, requires_grad=True)\nv = a[:2]\n"
        "torch.utils.swap_tensors(torch.ones(3), a)\n"
    )
    assert "Expected use_count of t2" in str(e)
