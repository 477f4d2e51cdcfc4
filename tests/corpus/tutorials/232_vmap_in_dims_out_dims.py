# torch.func.vmap beyond the basics: in_dims per argument (None = shared), out_dims,
# tuples of outputs, nested vmap for pairwise computations, and keyword arguments.
import torch
from torch.func import vmap

points = torch.tensor([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
center = torch.tensor([1.0, 1.0])


def dist(p, q):
    return ((p - q) ** 2).sum().sqrt()


print(vmap(dist, in_dims=(0, None))(points, center))

# all pairs: the outer vmap walks the rows of a, the inner the rows of b
pairwise = vmap(vmap(dist, in_dims=(None, 0)), in_dims=(0, None))(points, points)
print(pairwise)


def stats(row):
    return row.mean(), row - row.mean()


means, centered = vmap(stats)(points)
print(means)
print(centered)

cols = vmap(lambda c: c * 2, in_dims=1, out_dims=1)(points)
print(cols)


def scale(v, factor=1.0):
    return v * factor


print(vmap(scale)(points, factor=10.0))
print(vmap(torch.outer)(points, points).shape)
print(torch.vmap(torch.trace)(torch.stack([torch.eye(2), 2 * torch.eye(2)])))
