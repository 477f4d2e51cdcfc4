# Non-reentrant checkpointing around a block that takes a gradient itself (a gradient
# penalty, a physics residual): how often the block runs, and the gradients it gives.
import torch
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
calls = {"n": 0}


def residual(u):
    calls["n"] += 1
    print(f"block run {calls['n']}")
    energy = (u.sin() * u).sum()
    (du,) = torch.autograd.grad(energy, u, create_graph=True)
    return du * du


u = torch.linspace(-1.0, 1.0, 5, requires_grad=True)
out = checkpoint(residual, u, use_reentrant=False)
print("forward done, runs so far:", calls["n"])
out.sum().backward()
print("after backward:", calls["n"])
print(u.grad)

# The same block without checkpointing, for comparison.
v = u.detach().clone().requires_grad_()
calls["n"] = 0
residual(v).sum().backward()
print(torch.allclose(u.grad, v.grad), calls["n"])

# A block without an inner gradient: recomputed once per backward pass.
w = torch.randn(3, 3, requires_grad=True)


def block(x):
    print("plain block")
    return torch.tanh(x @ w).exp()


x = torch.randn(2, 3, requires_grad=True)
y = checkpoint(block, x, use_reentrant=False)
y.sum().backward(retain_graph=True)
y.mean().backward()
print(x.grad)
print(w.grad)
