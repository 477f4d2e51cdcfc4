"""A module's dtype conversion (`.double()`, `.float()`, `.half()`, `.to(dtype)`) changes each
parameter in place, as PyTorch's `_apply` (`param.data = ...`): a name or an optimizer holding a
parameter before the cast holds the module's parameter after it (it used to hold a stale
float32 copy: the optimizer stepped nothing, a silent difference); the gradient is cast too.
`F.linear` / `nn.Linear` take complex tensors, with PyTorch's conjugate Wirtinger gradients
(checked against float64 central differences of a real loss on the real and imaginary parts);
a complex module cast to a real dtype is refused (PyTorch would drop the imaginary parts)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers.programs import error, out


@pytest.mark.parametrize(
    "cast", ["model.double()", "model.to(torch.float64)", "model.to('cpu', torch.float64)"]
)
def test_optimizer_made_before_the_cast_trains_the_cast_parameters(cast: str) -> None:
    text = (
        "import torch\nimport torch.nn as nn\n"
        "model = nn.Linear(2, 1)\nw = model.weight\n"
        "with torch.no_grad():\n    w.fill_(1.0)\n    model.bias.fill_(0.0)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.5)\n"
        f"{cast}\n"
        "model(torch.ones(3, 2, dtype=torch.float64)).sum().backward()\n"
        "opt.step()\n"
        "print(w is model.weight, w.dtype, w.grad.dtype)\n"
        "print(model.weight.tolist(), model.bias.tolist())\n"
    )
    assert out(text) == "True torch.float64 torch.float64\n[[-0.5, -0.5]] [-1.5]\n"


@pytest.mark.parametrize("method", ["half", "bfloat16", "float", "double"])
def test_cast_keeps_identity_and_casts_the_gradient(method: str) -> None:
    text = (
        "import torch\nimport torch.nn as nn\n"
        "m = nn.Linear(2, 2)\np = m.bias\n"
        "m(torch.ones(1, 2)).sum().backward()\n"
        f"m.{method}()\n"
        "print(p is m.bias, p.dtype == p.grad.dtype, p.grad.tolist())\n"
    )
    assert out(text) == "True True [1.0, 1.0]\n"


def test_a_buffer_is_replaced_and_integer_buffers_kept() -> None:
    text = (
        "import torch\nimport torch.nn as nn\n"
        "bn = nn.BatchNorm1d(2)\nrm = bn.running_mean\nbn.double()\n"
        "print(rm is bn.running_mean, bn.running_mean.dtype, bn.num_batches_tracked.dtype)\n"
    )
    assert out(text) == "False torch.float64 torch.int64\n"


def test_a_complex_module_cast_to_a_real_dtype_is_refused() -> None:
    e = error(
        "import torch\nimport torch.nn as nn\n"
        "m = nn.Linear(2, 2).to(torch.cdouble)\nm.to(torch.float64)\n"
    )
    assert "complex parameters or buffers" in str(e)


W = np.array([[0.3 - 0.2j, -1.1 + 0.4j, 0.7 + 0.9j], [0.5 + 0.1j, 0.2 - 0.8j, -0.6 - 0.3j]])
B = np.array([0.25 - 0.5j, -0.75 + 0.1j])
X = np.array([[1.0 + 0.5j, -0.2 + 1.1j, 0.4 - 0.3j], [0.9 - 1.2j, 0.3 + 0.2j, -1.0 + 0.7j]])


def _loss(w: np.ndarray, b: np.ndarray) -> float:
    y = X @ w.T + b
    return float(np.sum(np.abs(y) ** 3) + np.sum(np.sin(y.real) * y.imag))


def _fd(f, a: np.ndarray, h: float = 1e-6) -> np.ndarray:
    g = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        for unit in (1.0, 1j):
            e = np.zeros_like(a)
            e[i] = unit * h
            g[i] += unit * (f(a + e) - f(a - e)) / (2 * h)
    return g


@pytest.mark.parametrize("bias", [True, False])
def test_complex_linear_gradients_match_central_differences(bias: bool) -> None:
    def lit(a: np.ndarray) -> str:
        return repr(a.tolist())

    b_arg = ", b" if bias else ""
    text = (
        "import torch\nimport torch.nn.functional as F\n"
        f"W = torch.tensor({lit(W)}, dtype=torch.complex128, requires_grad=True)\n"
        f"b = torch.tensor({lit(B)}, dtype=torch.complex128, requires_grad=True)\n"
        f"x = torch.tensor({lit(X)}, dtype=torch.complex128)\n"
        f"y = F.linear(x, W{b_arg})\n"
        "loss = (y.abs() ** 3).sum() + (torch.sin(y.real) * y.imag).sum()\n"
        "loss.backward()\n"
        "print([[(z.real, z.imag) for z in r] for r in W.grad.tolist()])\n"
        "print(y.grad_fn.name())\n"
    )
    lines = out(text).splitlines()
    got = np.array([[complex(re, im) for re, im in r] for r in eval(lines[0])])
    zero_b = B if bias else np.zeros_like(B)
    want = _fd(lambda w: _loss(w, zero_b), W)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    assert lines[1] == ("AddmmBackward0" if bias else "MmBackward0")
