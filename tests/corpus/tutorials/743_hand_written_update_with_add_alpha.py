# Gradient descent written by hand the way older tutorials and repositories write the update:
# `p.data.add_(-lr, p.grad.data)` (PyTorch's deprecated argument order, still accepted),
# `p.add_(p.grad, alpha=-lr)` under no_grad, and `torch.add(..., alpha=)` / `sub(..., alpha=)`.
# In float32 every one of them is one fused multiply-add in PyTorch, so the losses printed with
# all their digits follow PyTorch's to the last bit.
import warnings

import torch

warnings.filterwarnings("ignore", category=UserWarning)  # the old argument order's warning
torch.manual_seed(11)
x = torch.linspace(0, 3, 10)
y = 1.5 * x - 0.25 + 0.1 * torch.randn(10)

W = torch.tensor(0.2, requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
lr = 0.013
for step in range(25):
    loss = ((W * x + b - y) ** 2).mean() ** 0.5
    if W.grad is not None:
        W.grad.zero_()
        b.grad.zero_()
    loss.backward()
    if step % 2 == 0:
        W.data.add_(-lr, W.grad.data)
        b.data.add_(-lr, b.grad.data)
    else:
        with torch.no_grad():
            W.add_(W.grad, alpha=-lr)
            b.sub_(b.grad, alpha=lr)
    if step % 6 == 0:
        print(step, loss.item())

print(W.item(), b.item())
v = torch.randn(6)
g = torch.randn(6)
print(torch.add(v, g, alpha=0.37).tolist())
print(torch.sub(v, g, alpha=1.7).tolist())
print(v.unsqueeze(1).add(g, alpha=-0.2).sum().item())
