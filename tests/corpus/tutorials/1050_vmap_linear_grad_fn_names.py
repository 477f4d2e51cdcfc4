# Per-sample forward passes with torch.func.vmap over a linear model: the
# grad_fn names of the batched results (PyTorch runs the batched decomposition
# of each operation once).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import vmap

torch.manual_seed(0)
model = nn.Linear(3, 2)
W = torch.randn(2, 3, requires_grad=True)
b = torch.randn(2, requires_grad=True)
xs = torch.randn(4, 3)

print(vmap(model)(xs).grad_fn.name())
print(vmap(lambda x: F.linear(x, W, b))(xs).grad_fn.name())
print(vmap(lambda x: F.linear(x, W))(xs).grad_fn.name())
print(vmap(lambda x: W @ x)(xs).grad_fn.name())
print(vmap(lambda w: w @ xs[0])(torch.randn(4, 2, 3, requires_grad=True)).grad_fn.name())
print(vmap(lambda x: torch.dot(x, W[0]))(xs).grad_fn.name())
print(vmap(lambda x: x.unsqueeze(0) @ W.t())(xs).grad_fn.name())
print(vmap(lambda x: torch.addmv(b, W, x))(xs).grad_fn.name())
losses = vmap(lambda x: F.mse_loss(F.linear(x, W, b), torch.zeros(2)))(xs)
print(losses.grad_fn.name(), losses.shape)
print(vmap(lambda x: F.mse_loss(F.linear(x, W, b), torch.zeros(2), reduction="sum"))(xs).grad_fn.name())
print(vmap(lambda x: torch.tanh(F.linear(x, W, b)).sum())(xs).grad_fn.name())
