import torch
from torch.func import jacrev, vmap, grad


def f(x):
    return torch.stack([x[0] * x[1], torch.sin(x[0]), x[1] ** 2])


batch = torch.tensor([[1.0, 2.0], [0.0, -1.0], [0.5, 0.5]])
jacobians = vmap(jacrev(f))(batch)
print(jacobians.shape)
print(jacobians[1])


def energy(x, scale):
    return scale * (x ** 2).sum()


per_point = vmap(grad(energy, argnums=0), in_dims=(0, None))(batch, 3.0)
print(per_point)
print(vmap(torch.outer)(batch, batch).shape)
