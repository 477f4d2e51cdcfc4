import torch
from torch.func import grad, vmap


def loss_fn(w, b, x, y):
    pred = x @ w + b
    return (pred - y) ** 2


w = torch.tensor([0.5, -0.5])
b = torch.tensor(0.1)
X = torch.tensor([[1.0, 2.0], [0.0, 1.0], [-1.0, 3.0]])
Y = torch.tensor([1.0, 0.0, -2.0])

per_sample = vmap(grad(loss_fn, argnums=(0, 1)), in_dims=(None, None, 0, 0))
gw, gb = per_sample(w, b, X, Y)
print(gw)
print(gb)

# the mean of per-sample gradients is the batch gradient
wr = w.clone().requires_grad_(True)
br = b.clone().requires_grad_(True)
((X @ wr + br - Y) ** 2).mean().backward()
print(torch.allclose(gw.mean(0), wr.grad), torch.allclose(gb.mean(), br.grad))
