"""The gradients of mm, mv and bmm taken with create_graph=True are recorded with PyTorch's
nodes (derivatives.yaml: mm's rules transpose with .t(), TBackward0; mv's matrix gradient is
grad.ger(vec), a MulBackward0 of the gradient viewed as a column, and its vector gradient
self.t().mv(grad), a MvBackward0; bmm's are BmmBackward0s of transpose(1, 2)), where gradcli
showed TransposeBackward0, UnsqueezeBackward0, SqueezeBackward4 / MmBackward0 and
UnsafeViewBackward0. The names below are what torch 2.13 prints for the same program
(tests/corpus/tutorials/1126 prints the walks); the second derivatives taken through them are
checked against central differences in float64."""

from __future__ import annotations

import pytest

from gradcli.lang.program import parse


def run(source: str) -> list[str]:
    return "".join(parse(source, "t.py").run(dtype="float32").output).splitlines()


NODES = """
import torch
torch.manual_seed(0)
W = torch.randn(3, 4, requires_grad=True)
x = torch.randn(4, requires_grad=True)
gW, gx = torch.autograd.grad(torch.mv(W, x).sin().sum(), (W, x), create_graph=True)
print(gW.grad_fn.name(), [f.name() for f, _ in gW.grad_fn.next_functions])
print(gx.grad_fn.name(), [f.name() for f, _ in gx.grad_fn.next_functions])
gW2, gx2 = torch.autograd.grad((W @ x).sin().sum(), (W, x), create_graph=True)
print(gW2.grad_fn.name(), gx2.grad_fn.name(), gx2.grad_fn.next_functions[0][0].name())
A = torch.randn(3, 4, requires_grad=True)
B = torch.randn(4, 2, requires_grad=True)
gA, gB = torch.autograd.grad(torch.mm(A, B).exp().sum(), (A, B), create_graph=True)
print(gA.grad_fn.name(), [f.name() for f, _ in gA.grad_fn.next_functions])
print(gB.grad_fn.name(), [f.name() for f, _ in gB.grad_fn.next_functions])
P = torch.randn(2, 3, 4, requires_grad=True)
Q = torch.randn(2, 4, 5, requires_grad=True)
gP, gQ = torch.autograd.grad(torch.bmm(P, Q).cos().sum(), (P, Q), create_graph=True)
print(gP.grad_fn.name(), [f.name() for f, _ in gP.grad_fn.next_functions])
print(gQ.grad_fn.name(), [f.name() for f, _ in gQ.grad_fn.next_functions])
"""

# torch 2.13's output of NODES
TORCH = [
    "MulBackward0 ['ViewBackward0', 'torch::autograd::AccumulateGrad']",
    "MvBackward0 ['TBackward0', 'MulBackward0']",
    "MulBackward0 MvBackward0 TBackward0",
    "MmBackward0 ['MulBackward0', 'TBackward0']",
    "MmBackward0 ['TBackward0', 'MulBackward0']",
    "BmmBackward0 ['MulBackward0', 'TransposeBackward0']",
    "BmmBackward0 ['TransposeBackward0', 'MulBackward0']",
]


def test_second_order_nodes_of_matrix_products_are_pytorchs() -> None:
    assert run(NODES) == TORCH


@pytest.mark.parametrize(
    "op, ws, xs",
    [("mv", "(3, 4)", "(4,)"), ("mm", "(3, 4)", "(4, 2)"), ("bmm", "(2, 3, 4)", "(2, 4, 2)")],
)
def test_second_derivatives_through_them_match_central_differences(op, ws, xs) -> None:
    src = f"""
import torch
torch.manual_seed(3)
W = torch.randn({ws}, dtype=torch.float64, requires_grad=True)
x = torch.randn({xs}, dtype=torch.float64, requires_grad=True)

def penalty(W, x):
    gW, gx = torch.autograd.grad(torch.{op}(W, x).tanh().sum(), (W, x), create_graph=True)
    return (gW * gW).sum() + (gx * gx.sin()).sum()

hW, hx = torch.autograd.grad(penalty(W, x), (W, x))
h = 1e-6
worst = 0.0
for t, ht in ((W, hW), (x, hx)):
    for i in range(t.numel()):
        e = torch.zeros(t.numel(), dtype=torch.float64)
        e[i] = h
        e = e.view(t.shape)
        if t is W:
            up, down = penalty(W + e, x), penalty(W - e, x)
        else:
            up, down = penalty(W, x + e), penalty(W, x - e)
        fd = ((up - down) / (2 * h)).item()
        worst = max(worst, abs(fd - ht.reshape(-1)[i].item()))
print(worst < 1e-6, worst)
"""
    out = run(src)
    assert out[0].startswith("True"), out
