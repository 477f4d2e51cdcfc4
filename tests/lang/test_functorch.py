"""functorch's legacy API as PyTorch 2.13 ships it: the transforms under their old name (with
PyTorch's FutureWarning), make_functional / make_functional_with_buffers (the model as a
function of its parameters) and combine_state_for_ensemble (checked by hand with
/work/torchenv)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

HEAD = "import torch\nimport torch.nn as nn\nimport functorch\n"
HEAD += "from functorch import make_functional, make_functional_with_buffers\n"


def run(text: str, dtype: str = "float32") -> tuple[str, list[str]]:
    r = parse(HEAD + text, "t.py").run(dtype=dtype)
    return "".join(r.output), list(r.warnings)


def out(text: str, dtype: str = "float32") -> str:
    return run(text, dtype)[0]


def fails(text: str) -> GradcliError:
    with pytest.raises(GradcliError) as e:
        out(text)
    return e.value


def test_every_call_warns_as_pytorch_once_for_each_line() -> None:
    _, warnings = run(
        "for i in range(3):\n    f, p = make_functional(nn.Linear(1, 1))\n"
        "g = functorch.grad(torch.sin)\nv = functorch.vmap(torch.sin)\n"
    )
    assert len(warnings) == 3
    assert warnings[0].startswith("t.py:6:")
    assert "`functorch.make_functional` is deprecated as of PyTorch 2.0" in warnings[0]
    assert "Please use `torch.func.functional_call` instead" in warnings[0]
    assert "Please use `torch.func.grad` instead" in warnings[1]
    assert "Please use `torch.vmap` instead" in warnings[2]


def test_the_warnings_filters_apply_to_them() -> None:
    text = "import warnings\nwarnings.simplefilter('ignore', FutureWarning)\n"
    assert run(text + "f, p = make_functional(nn.Linear(1, 1))\n")[1] == []
    e = fails("import warnings\nwarnings.simplefilter('error')\nf = functorch.hessian(torch.sin)")
    assert "`functorch.hessian` is deprecated" in str(e)


def test_functional_model_is_the_model_on_the_given_parameters() -> None:
    got = out(
        "torch.manual_seed(0)\nm = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))\n"
        "f, p = make_functional(m)\nx = torch.randn(5, 3)\n"
        "print(type(p).__name__, len(p), f.param_names)\n"
        "print(torch.equal(f(p, x), m(x)), p[0] is m[0].weight, torch.equal(p[0], m[0].weight))\n"
        "q = tuple(t + 1 for t in p)\n"
        "m2 = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))\n"
        "with torch.no_grad():\n    for a, b in zip(m2.parameters(), q):\n        a.copy_(b)\n"
        "print(torch.allclose(f(q, x), m2(x)), torch.equal(f(p, x), m(x)))\n"
        "print(type(f), p[0].is_leaf, p[0].requires_grad)\n"
    )
    assert got == (
        "tuple 4 ('0.weight', '0.bias', '2.weight', '2.bias')\nTrue False True\nTrue True\n"
        "<class 'torch._functorch.make_functional.FunctionalModule'> True True\n"
    )


def test_gradient_through_params_matches_finite_differences() -> None:
    # float64: grad of a loss with respect to every parameter, against central differences
    # of the functional model computed by the program itself
    text = (
        "torch.manual_seed(3)\nm = nn.Sequential(nn.Linear(2, 3), nn.Sigmoid(), nn.Linear(3, 1))\n"
        "m = m.double()\nf, p = make_functional(m)\nx = torch.randn(4, 2, dtype=torch.float64)\n"
        "def loss(p):\n    return f(p, x).pow(2).sum()\n"
        "g = functorch.grad(loss)(p)\nh = 1e-6\n"
        "for i in range(len(p)):\n"
        "    flat = p[i].detach().reshape(-1)\n"
        "    for j in range(flat.numel()):\n"
        "        up = [t.detach().clone() for t in p]\n"
        "        dn = [t.detach().clone() for t in p]\n"
        "        up[i].view(-1)[j] += h\n        dn[i].view(-1)[j] -= h\n"
        "        fd = (loss(up) - loss(dn)) / (2 * h)\n"
        "        print(g[i].reshape(-1)[j].item(), fd.item())\n"
        "loss(p).backward()\nprint(all(torch.allclose(a.grad, b) for a, b in zip(p, g)))\n"
    )
    lines = out(text, "float64").splitlines()
    assert lines[-1] == "True"
    pairs = np.array([[float(v) for v in line.split()] for line in lines[:-1]])
    assert len(pairs) == 6 + 3 + 3 + 1
    np.testing.assert_allclose(pairs[:, 0], pairs[:, 1], rtol=1e-6, atol=1e-8)


def test_tied_parameters_are_one_and_move_together() -> None:
    got = out(
        "class T(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.a = nn.Linear(2, 2, bias=False)\n"
        "        self.b = nn.Linear(2, 2, bias=False)\n"
        "        self.b.weight = self.a.weight\n"
        "    def forward(self, x):\n        return self.b(self.a(x))\n"
        "f, p = make_functional(T())\nprint(len(p), f.param_names)\n"
        "w = torch.eye(2).requires_grad_()\nx = torch.tensor([1.0, 2.0])\n"
        "print(f((2 * w,), x))\n"
        "print(functorch.grad(lambda p: f(p, x).sum())((w,)))\n"
    )
    # (PyTorch's text: d/dW sum(W W x) at W = I is 1 (Wx)^T + W^T 1 x^T)
    assert got == "1 ('a.weight',)\ntensor([4., 8.], grad_fn=<SqueezeBackward4>)\n" + (
        "(tensor([[2., 4.],\n        [2., 4.]], grad_fn=<AddBackward0>),)\n"
    )


def test_with_buffers_and_disable_autograd_tracking() -> None:
    got = out(
        "m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))\n"
        "f, p, b = make_functional_with_buffers(m, disable_autograd_tracking=True)\n"
        "print(len(p), len(b), f.buffer_names, [t.requires_grad for t in p])\n"
        "x = torch.tensor([[1.0, 2.0], [3.0, 5.0]])\ny = f(p, b, x)\n"
        "print(b[0].sum().item() != 0, m[1].running_mean, y.requires_grad)\n"
    )
    assert got == (
        "4 3 ('1.running_mean', '1.running_var', '1.num_batches_tracked') "
        "[False, False, False, False]\nTrue tensor([0., 0.]) False\n"
    )


def test_combine_state_for_ensemble_stacks_detached_tensors() -> None:
    got = out(
        "ms = [nn.Linear(2, 1) for _ in range(3)]\n"
        "f, p, b = functorch.combine_state_for_ensemble(ms)\n"
        "print(type(f).__name__, p[0].shape, p[0].requires_grad, p[0].is_leaf, b)\n"
        "x = torch.ones(4, 2)\ny = functorch.vmap(f, in_dims=(0, 0, None))(p, b, x)\n"
        "print(y.shape, all(torch.allclose(y[i], ms[i](x)) for i in range(3)))\n"
    )
    assert got == (
        "FunctionalModuleWithBuffers torch.Size([3, 1, 2]) False True ()\n"
        "torch.Size([3, 4, 1]) True\n"
    )


@pytest.mark.parametrize(
    "text, message, kind",
    [
        ("make_functional(nn.BatchNorm1d(2))", "`model` has buffers. Please use", "RuntimeError"),
        ("make_functional(5)", "'int' object has no attribute 'buffers'", "AttributeError"),
        (
            "make_functional_with_buffers(torch.ones(1))",
            "'Tensor' object has no attribute 'named_parameters'",
            "AttributeError",
        ),
        (
            "f, p = make_functional(nn.Linear(1, 1))\nf(5, torch.ones(1))",
            "'int' object is not iterable",
            "TypeError",
        ),
        (
            "f, p = make_functional(nn.Linear(1, 1))\nf([1, 2], torch.ones(1))",
            "1 is not an instance of torch.Tensor",
            "TypeError",
        ),
        (
            "functorch.combine_state_for_ensemble([])",
            "Expected at least one model, got 0.",
            "RuntimeError",
        ),
        (
            "functorch.combine_state_for_ensemble([nn.Linear(1, 1), nn.ReLU()])",
            "Expected all models to be of the same class.",
            "RuntimeError",
        ),
        # not in functorch 2.13 either: Python's own error, not a gradcli refusal
        (
            "functorch.linearize",
            "module 'functorch' has no attribute 'linearize'",
            "AttributeError",
        ),
        ("functorch.jacobian", "module 'functorch' has no attribute 'jacobian'", "AttributeError"),
    ],
)
def test_errors_in_pytorchs_words(text: str, message: str, kind: str) -> None:
    e = fails(text)
    assert message in str(e)
    assert e.python_class == kind
