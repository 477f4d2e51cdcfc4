"""`torch.nn.utils.parametrize`: the parametrized tensor computed from `original` on every read,
gradients reaching `original` (against central differences in float64), right_inverse on
registration and on assignment, several parametrizations, buffers, a program's module,
`cached()`, removal both ways, and PyTorch's refusals in its words."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

HEAD = (
    "import torch\nimport torch.nn as nn\nimport torch.nn.utils.parametrize as P\n"
    "class Sym(nn.Module):\n    def forward(self, X):\n"
    "        return X.triu() + X.triu(1).transpose(-1, -2)\n"
    "    def right_inverse(self, A):\n        return A.triu()\n"
    "class Scale(nn.Module):\n    def __init__(self, c):\n        super().__init__()\n"
    "        self.c = c\n    def forward(self, X):\n        return X * self.c\n"
    "    def right_inverse(self, A):\n        return A / self.c\n"
)


def out(text: str, dtype: str = "float64") -> list[str]:
    return "".join(parse(HEAD + text, "t.py").run(dtype=dtype).output).splitlines()


def floats(line: str) -> np.ndarray:
    return np.array([float(v) for v in line.split()])


def test_gradient_reaches_original_as_central_differences() -> None:
    # loss(A) = sum(tanh(x @ W(A).T + b)), W = Scale(Sym(A)); its gradient in A by backward
    # and by central differences of the forward (float64), over every entry of A.
    lines = out(
        "torch.manual_seed(3)\nm = nn.Linear(4, 4)\n"
        "P.register_parametrization(m, 'weight', Sym())\n"
        "P.register_parametrization(m, 'weight', Scale(1.5))\n"
        "x = torch.randn(5, 4)\nA = m.parametrizations.weight.original\n"
        "loss = lambda: torch.tanh(m(x)).sum()\n"
        "loss().backward()\nprint(*A.grad.flatten().tolist())\n"
        "h = 1e-6\nfd = []\n"
        "with torch.no_grad():\n"
        "    for i in range(4):\n        for j in range(4):\n"
        "            A[i, j] += h\n            up = loss().item()\n"
        "            A[i, j] -= 2 * h\n            down = loss().item()\n"
        "            A[i, j] += h\n            fd.append((up - down) / (2 * h))\n"
        "print(*fd)\n"
    )
    grad, fd = floats(lines[0]), floats(lines[1])
    assert np.abs(grad).max() > 1e-3
    np.testing.assert_allclose(grad, fd, rtol=1e-6, atol=1e-8)
    # the strictly lower triangle of A is not used: its gradient is exactly zero
    assert np.all(grad.reshape(4, 4)[np.tril_indices(4, -1)] == 0)


def test_registration_assignment_and_removal() -> None:
    lines = out(
        "m = nn.Linear(3, 3)\norig = m.weight\n"
        "P.register_parametrization(m, 'weight', Sym())\n"
        "print(m.parametrizations.weight.original is orig)\n"
        "print(m.weight is orig, torch.equal(m.weight, m.weight.T))\n"
        "m.weight = torch.arange(9.).reshape(3, 3) + torch.arange(9.).reshape(3, 3).T\n"
        "print(orig.tolist())\nprint(m.weight.tolist())\n"
        "print([n for n, _ in m.named_parameters()])\nprint(list(m.state_dict()))\n"
        "with P.cached():\n    print(m.weight is m.weight)\nprint(m.weight is m.weight)\n"
        "P.remove_parametrizations(m, 'weight', leave_parametrized=False)\n"
        "print(m.weight is orig, m.weight.tolist(), P.is_parametrized(m))\nprint(m)\n"
    )
    assert lines[0] == "True"
    assert lines[1] == "False True"
    assert lines[2] == "[[0.0, 4.0, 8.0], [0.0, 8.0, 12.0], [0.0, 0.0, 16.0]]"
    assert lines[3] == "[[0.0, 4.0, 8.0], [4.0, 8.0, 12.0], [8.0, 12.0, 16.0]]"
    assert lines[4] == "['bias', 'parametrizations.weight.original']"
    assert lines[5] == "['bias', 'parametrizations.weight.original']"
    assert lines[6:8] == ["True", "False"]
    assert lines[8] == "True [[0.0, 4.0, 8.0], [0.0, 8.0, 12.0], [0.0, 0.0, 16.0]] False"
    assert lines[9] == "Linear(in_features=3, out_features=3, bias=True)"


def test_buffers_and_a_programs_module() -> None:
    lines = out(
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.w = nn.Parameter(torch.ones(2, 2))\n"
        "        self.register_buffer('s', torch.tensor([1., 2.]))\n"
        "    def forward(self, x):\n        return x @ self.w * self.s\n"
        "n = Net()\nP.register_parametrization(n, 's', Scale(10.0))\n"
        "P.register_parametrization(n, 'w', Scale(2.0))\n"
        "print(n.s.tolist(), n.parametrizations.s.original.tolist())\n"
        "print([k for k, _ in n.named_buffers()], [k for k, _ in n.named_parameters()])\n"
        "y = n(torch.ones(1, 2)).sum()\ny.backward()\n"
        "print(y.item(), n.parametrizations.w.original.grad.tolist())\n"
        "print(n)\n"
    )
    assert lines[0] == "[1.0, 2.0] [0.1, 0.2]"
    assert lines[1] == "['parametrizations.s.original'] ['parametrizations.w.original']"
    # right_inverse keeps W = ones: y = sum_j 2 * s_j = 6; dy/d original_ij = 2 * s_j
    assert lines[2] == "6.0 [[2.0, 4.0], [2.0, 4.0]]"
    assert lines[3] == "ParametrizedNet("
    assert "    (s): ParametrizationList(" in lines and "      (0): Scale()" in lines


@pytest.mark.parametrize(
    ("program", "message"),
    [
        (
            "class T(nn.Module):\n    def forward(self, X):\n        return X.t()\n"
            "P.register_parametrization(nn.Linear(2, 3), 'weight', T())",
            r"may not change the shape of the tensor, unless `unsafe` flag is enabled.\n"
            r"unparametrized shape: torch.Size\(\[3, 2\]\)\nparametrized shape: "
            r"torch.Size\(\[2, 3\]\)",
        ),
        (
            "class H(nn.Module):\n    def forward(self, X):\n        return X.half()\n"
            "P.register_parametrization(nn.Linear(2, 3), 'weight', H())",
            r"may not change the dtype.*\nunparametrized dtype: torch.float64\n"
            r"parametrized dtype: torch.float16",
        ),
        (
            "P.register_parametrization(nn.Linear(2, 3), 'kernel', Sym())",
            r"does not have a parameter, a buffer, or a parametrized element with name 'kernel'",
        ),
        (
            "P.remove_parametrizations(nn.Linear(2, 3), 'weight')",
            r"does not have a parametrization on weight",
        ),
        (
            "m = nn.Linear(2, 2)\nP.register_parametrization(m, 'weight', nn.Identity())\n"
            "m.weight = torch.ones(2, 2)",
            r"parametrization Identity does not implement right_inverse.",
        ),
        (
            "m = nn.Linear(2, 2)\nP.register_parametrization(m, 'weight', Sym())\n"
            "class T(nn.Module):\n    def forward(self, X):\n        return X[0]\n"
            "P.register_parametrization(m, 'weight', T())",
            r"module.weight.shape: torch.Size\(\[2, 2\]\)\n"
            r"parametrization\(module.weight\).shape: torch.Size\(\[2\]\)",
        ),
    ],
)
def test_pytorchs_refusals(program: str, message: str) -> None:
    with pytest.raises(GradcliError, match=message):
        out(program)


def test_unsafe_and_a_catchable_error() -> None:
    lines = out(
        "class T(nn.Module):\n    def forward(self, X):\n        return X.t()\n"
        "m = nn.Linear(2, 3)\n"
        "try:\n    P.register_parametrization(m, 'weight', T())\n"
        "except ValueError as e:\n    print('caught')\n"
        "P.register_parametrization(m, 'weight', T(), unsafe=True)\n"
        "print(tuple(m.weight.shape), m.parametrizations.weight.unsafe)\n"
    )
    assert lines == ["caught", "(2, 3) True"]


@pytest.mark.parametrize(
    ("dim", "node"),
    [
        ("0", "WeightNormInterfaceBackward0"),  # PyTorch's fused kernel (the first dim)
        ("1", "WeightNormInterfaceBackward0"),  # (the last dim)
        ("None", "MulBackward0"),  # composed of plain operations
    ],
)
def test_weight_norm_gradients_as_central_differences(dim: str, node: str) -> None:
    # loss(g, v) = sum(sin(x @ W.T)), W = g * v / ||v|| (over every dimension but dim): the
    # gradients backward gives to g and v against central differences (float64)
    lines = out(
        "from torch.nn.utils.parametrizations import weight_norm\n"
        f"torch.manual_seed(1)\nm = weight_norm(nn.Linear(3, 2), dim={dim})\n"
        "x = torch.randn(4, 3)\nps = m.parametrizations.weight\n"
        "loss = lambda: torch.sin(m(x)).sum()\nloss().backward()\n"
        "print(*ps.original0.grad.flatten().tolist())\n"
        "print(*ps.original1.grad.flatten().tolist())\n"
        "h = 1e-6\n"
        "for t in (ps.original0, ps.original1):\n    fd = []\n"
        "    flat = t.view(-1)\n"
        "    with torch.no_grad():\n        for i in range(flat.numel()):\n"
        "            flat[i] += h\n            up = loss().item()\n"
        "            flat[i] -= 2 * h\n            down = loss().item()\n"
        "            flat[i] += h\n            fd.append((up - down) / (2 * h))\n"
        "    print(*fd)\n"
        "print(m.weight.grad_fn.name())\n"
    )
    g_grad, v_grad, g_fd, v_fd = (floats(line) for line in lines[:4])
    assert np.abs(v_grad).max() > 1e-3
    np.testing.assert_allclose(g_grad, g_fd, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(v_grad, v_fd, rtol=1e-6, atol=1e-8)
    assert lines[4] == node


def test_weight_norm_registers_as_pytorch() -> None:
    lines = out(
        "from torch.nn.utils.parametrizations import weight_norm\n"
        "m = nn.Linear(2, 3)\nw = m.weight.detach().clone()\nweight_norm(m)\n"
        "ps = m.parametrizations.weight\n"
        "print(torch.allclose(m.weight, w), tuple(ps.original0.shape), ps.is_tensor)\n"
        "print([n for n, _ in m.named_parameters()])\n"
        "print(ps[0], tuple(weight_norm(nn.Linear(2, 3), dim=None)"
        ".parametrizations.weight.original0.shape))\n"
    )
    assert lines == [
        "True (3, 1) False",
        "['bias', 'parametrizations.weight.original0', 'parametrizations.weight.original1']",
        "_WeightNorm() ()",
    ]


@pytest.mark.parametrize(
    ("shape", "omap"),
    [
        ((4, 4), "None"),
        ((4, 4), "'cayley'"),
        ((5, 3), "None"),
        ((3, 5), "None"),
        ((5, 3), "'matrix_exp'"),
        ((2, 4), "'cayley'"),
    ],
)
def test_orthogonal_is_orthogonal_and_its_gradient_is_central_differences(
    shape: tuple[int, int], omap: str
) -> None:
    # torch.nn.utils.parametrizations.orthogonal (matrix_exp for square weights, Householder
    # for the others, Cayley on request): after a step away from the initial point the
    # weight is still orthogonal, and the gradient reaching `original` is the loss's
    # derivative by central differences (float64), over every entry.
    rows, cols = shape
    lines = out(
        "from torch.nn.utils.parametrizations import orthogonal\n"
        f"torch.manual_seed(1)\nm = orthogonal(nn.Linear({cols}, {rows}), orthogonal_map={omap})\n"
        "A = m.parametrizations.weight.original\n"
        # (off the diagonal: PyTorch's Householder map reads the diagonal's signs, .int())
        "with torch.no_grad():\n    A += 0.3 * torch.randn(A.shape) * (1 - torch.eye(*A.shape))\n"
        f"x = torch.randn(6, {cols})\n"
        "W = m.weight\nsmall = W @ W.T if W.shape[0] <= W.shape[1] else W.T @ W\n"
        "print((small - torch.eye(min(W.shape))).abs().max().item())\n"
        "loss = lambda: torch.tanh(m(x)).pow(2).sum()\n"
        "loss().backward()\nprint(*A.grad.flatten().tolist())\n"
        # (the diagonal is left alone: the Householder map's .int() of it is a step)
        "h = 1e-6\nfd = []\n"
        "with torch.no_grad():\n"
        f"    for i in range({rows}):\n        for j in range({cols}):\n"
        "            if i == j:\n                fd.append(A.grad[i, j].item())\n"
        "                continue\n"
        "            A[i, j] += h\n            up = loss().item()\n"
        "            A[i, j] -= 2 * h\n            down = loss().item()\n"
        "            A[i, j] += h\n            fd.append((up - down) / (2 * h))\n"
        "print(*fd)\n"
    )
    assert float(lines[0]) < 1e-12
    grad, fd = floats(lines[1]), floats(lines[2])
    assert np.abs(grad).max() > 1e-3
    np.testing.assert_allclose(grad, fd, rtol=1e-5, atol=1e-7)
