"""Program code that runs during a backward pass (a custom Function's backward, a module's full
backward hook, a tensor hook) reads the `.grad` PyTorch's engine has already filled in: a leaf's
once the last node that sends it a gradient has run (its AccumulateGrad runs at once), an
intermediate's retained gradient once its own gradient is complete. Each value read in the pass
is checked against the one printed after it and against central finite differences (float64)."""

from __future__ import annotations

import numpy as np

from tests.helpers.programs import out

_SCALE = (
    "import torch\n"
    "class Scale(torch.autograd.Function):\n"
    "    @staticmethod\n"
    "    def forward(ctx, x):\n"
    "        return x * 3\n"
    "    @staticmethod\n"
    "    def backward(ctx, g):\n"
    "        print('seen', {seen})\n"
    "        return g * 3\n"
)


def _rows(text: str) -> dict[str, list[float]]:
    rows = {}
    for line in text.splitlines():
        key, _, rest = line.partition(" ")
        rows[key] = [float(v) for v in rest.strip("[]").split(",")]
    return rows


def _fd(f, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    g = np.zeros_like(x)
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = h
        g[i] = (f(x + e) - f(x - e)) / (2 * h)
    return g


def test_a_leaf_gradient_complete_before_a_custom_backward_is_visible_in_it() -> None:
    x0, w0 = np.array([0.5, -1.25, 2.0]), np.array([1.5, 0.25, -0.75])
    got = _rows(
        out(
            _SCALE.format(seen="w.grad.tolist()")
            + f"x = torch.tensor({x0.tolist()}, dtype=torch.float64, requires_grad=True)\n"
            + f"w = torch.tensor({w0.tolist()}, dtype=torch.float64, requires_grad=True)\n"
            + "(Scale.apply(x) * w).pow(2).sum().backward()\n"
            + "print('final', w.grad.tolist())\n"
            + "print('x', x.grad.tolist())\n"
        )
    )
    assert got["seen"] == got["final"]
    np.testing.assert_allclose(got["final"], _fd(lambda w: ((3 * x0 * w) ** 2).sum(), w0))
    np.testing.assert_allclose(got["x"], _fd(lambda x: ((3 * x * w0) ** 2).sum(), x0))


def test_a_full_backward_hook_reads_its_modules_weight_gradient() -> None:
    got = _rows(
        out(
            "import torch\n"
            "lin = torch.nn.Linear(3, 2).double()\n"
            "with torch.no_grad():\n"
            "    lin.weight.copy_(torch.tensor([[1., -2., .5], [0.25, 3., -1.]]))\n"
            "    lin.bias.copy_(torch.tensor([0.5, -0.5]))\n"
            "def hook(m, gin, gout):\n"
            "    print('seen', m.weight.grad.flatten().tolist())\n"
            "    print('bias', m.bias.grad.tolist())\n"
            "lin.register_full_backward_hook(hook)\n"
            "x = torch.tensor([[1., 2., -1.], [0.5, -1.5, 2.]], dtype=torch.float64,"
            " requires_grad=True)\n"
            "lin(x).tanh().sum().backward()\n"
            "print('final', lin.weight.grad.flatten().tolist())\n"
        )
    )
    assert got["seen"] == got["final"]
    x = np.array([[1.0, 2.0, -1.0], [0.5, -1.5, 2.0]])
    w0 = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]])
    b = np.array([0.5, -0.5])
    fd = _fd(lambda w: np.tanh(x @ w.reshape(2, 3).T + b).sum(), w0.ravel())
    np.testing.assert_allclose(got["final"], fd, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(
        got["bias"], _fd(lambda c: np.tanh(x @ w0.T + c).sum(), b), rtol=1e-6, atol=1e-9
    )


def test_a_retained_gradient_above_a_custom_backward_is_visible_in_it() -> None:
    x0 = np.array([1.0, -2.0, 0.5])
    got = _rows(
        out(
            _SCALE.format(seen="h.grad.tolist()")
            + f"x = torch.tensor({x0.tolist()}, dtype=torch.float64, requires_grad=True)\n"
            + "y = Scale.apply(x)\n"
            + "h = y.sin()\n"
            + "h.retain_grad()\n"
            + "(h ** 3).sum().backward()\n"
            + "print('final', h.grad.tolist())\n"
        )
    )
    assert got["seen"] == got["final"]
    h0 = np.sin(3 * x0)
    np.testing.assert_allclose(got["final"], _fd(lambda h: (h**3).sum(), h0), rtol=1e-7)


def test_a_leafs_hook_reads_the_gradient_of_a_leaf_finished_before_it() -> None:
    w0, v0 = np.array([1.0, -2.5]), np.array([3.0, 0.5])
    got = _rows(
        out(
            "import torch\n"
            f"w = torch.tensor({w0.tolist()}, dtype=torch.float64, requires_grad=True)\n"
            f"v = torch.tensor({v0.tolist()}, dtype=torch.float64, requires_grad=True)\n"
            "w.register_hook(lambda g: print('seen', v.grad.tolist()))\n"
            "((w * 2).sum() * (v * v).sum()).backward()\n"
            "print('final', v.grad.tolist())\n"
        )
    )
    assert got["seen"] == got["final"]
    np.testing.assert_allclose(got["final"], _fd(lambda v: 2 * w0.sum() * (v * v).sum(), v0))


def test_a_saved_tensors_unpack_hook_reads_a_finished_leaf_gradient() -> None:
    x0, w0 = np.array([0.5, -1.0]), np.array([2.0, 0.25])
    got = _rows(
        out(
            "import torch\n"
            f"x = torch.tensor({x0.tolist()}, dtype=torch.float64, requires_grad=True)\n"
            f"w = torch.tensor({w0.tolist()}, dtype=torch.float64, requires_grad=True)\n"
            "b = torch.zeros(2, dtype=torch.float64, requires_grad=True)\n"
            "def unpack(t):\n"
            "    print('seen', b.grad.tolist())\n"
            "    return t\n"
            "with torch.autograd.graph.saved_tensors_hooks(lambda t: t, unpack):\n"
            "    z = (x * w).exp()\n"
            "(z * 3 + b).sum().backward()\n"
            "print('final', b.grad.tolist())\n"
            "print('w', w.grad.tolist())\n"
        )
    )
    assert got["seen"] == got["final"] == [1.0, 1.0]
    np.testing.assert_allclose(got["w"], _fd(lambda w: (3 * np.exp(x0 * w)).sum(), w0))
