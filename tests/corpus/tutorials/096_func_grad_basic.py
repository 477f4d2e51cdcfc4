import torch
from torch.func import grad

x = torch.tensor(0.5)
cos_x = grad(lambda x: torch.sin(x))(x)
print(cos_x, torch.cos(x))

neg_sin_x = grad(grad(lambda x: torch.sin(x)))(x)
print(neg_sin_x, -torch.sin(x))


def loss(w, x, y):
    return ((x @ w - y) ** 2).mean()


w = torch.tensor([1.0, -1.0])
X = torch.tensor([[1.0, 2.0], [3.0, 4.0], [0.5, -0.5]])
Y = torch.tensor([0.0, 1.0, 2.0])
print(grad(loss)(w, X, Y))
print(grad(loss, argnums=(0, 2))(w, X, Y))
