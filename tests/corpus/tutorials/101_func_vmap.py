import torch
from torch.func import vmap

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
y = torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]])

batched_dot = vmap(torch.dot)
print(batched_dot(x, y))

weights = torch.tensor([1.0, 2.0, 3.0])
print(vmap(torch.dot, in_dims=(0, None))(x, weights))


def model(feature_vec):
    return feature_vec.dot(weights).relu()


print(vmap(model)(torch.tensor([[1.0, -1.0, 0.0], [-2.0, 0.0, 0.0]])))
print(vmap(lambda row: row.sum() * 2, in_dims=1)(x))
print(vmap(vmap(lambda a: a * 10))(x))
