"""@once_differentiable as PyTorch's decorator behaves: a gradient asked with a graph (a
grad_output that requires grad, create_graph=True) comes back requiring grad through an
`Error` node whose backward raises PyTorch's message; without such a grad_output it does not
require grad. (PyTorch 2.13 printed the expected lines for the same programs.)"""

from __future__ import annotations

from gradcli.lang.program import parse

HEAD = """import torch
from torch.autograd.function import once_differentiable
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y
x = torch.tensor([0.0, 1.0], dtype=torch.float64, requires_grad=True)
"""


def _printed(body: str) -> list[str]:
    return "".join(parse(HEAD + body, "once.py").run(dtype="float32").output).splitlines()


def test_a_graph_asked_gives_an_error_node_that_raises_when_differentiated() -> None:
    out = _printed(
        "v = torch.ones(2, dtype=torch.float64, requires_grad=True)\n"
        "(g,) = torch.autograd.grad(Exp.apply(x), x, v, create_graph=True)\n"
        "print(g.requires_grad, g.grad_fn.name(), g.grad_fn)\n"
        "print(g)\n"
        "try:\n    g.sum().backward()\nexcept RuntimeError as e:\n    print(e)\n"
    )
    assert out[0].startswith("True torch::autograd::Error <Error object at 0x")
    assert out[1] == "tensor([1.0000, 2.7183], dtype=torch.float64, grad_fn=<Error>)"
    assert out[2] == (
        "trying to differentiate twice a function that was marked with @once_differentiable"
    )


def test_without_a_grad_output_that_requires_grad_nothing_is_recorded() -> None:
    out = _printed(
        "(g,) = torch.autograd.grad(Exp.apply(x).sum(), x, create_graph=True)\n"
        "print(g.requires_grad, g.grad_fn)\n"
        "y = Exp.apply(x)\ny.backward(torch.ones(2, dtype=torch.float64))\nprint(x.grad)\n"
    )
    assert out == ["False None", "tensor([1.0000, 2.7183], dtype=torch.float64)"]


def test_no_grad_on_backward_is_not_once_differentiable() -> None:
    # @torch.no_grad() on backward also runs it without a graph, but PyTorch adds no Error
    # node: the gradient does not require grad
    src = HEAD.replace("@once_differentiable", "@torch.no_grad()") + (
        "v = torch.ones(2, dtype=torch.float64, requires_grad=True)\n"
        "(g,) = torch.autograd.grad(Exp.apply(x), x, v, create_graph=True)\n"
        "print(g.requires_grad)\n"
    )
    assert "".join(parse(src, "nograd.py").run(dtype="float32").output).strip() == "False"
