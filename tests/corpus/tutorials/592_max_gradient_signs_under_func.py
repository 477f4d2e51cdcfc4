# Who gets the gradient of a maximum, and with which sign of zero: torch.func's grad next to
# backward(), for a loss that falls as the maximum grows.
import torch
from torch.func import grad, jacrev, vmap

scores = torch.tensor([0.5, 2.0, -1.0, 2.0])


def loss(s):
    return -3.0 * s.max()


print("func.grad:", grad(loss)(scores))
leaf = scores.clone().requires_grad_()
loss(leaf).backward()
print("backward: ", leaf.grad)
print("min:", grad(lambda s: -s.min())(scores))
print("rows:", vmap(grad(loss))(torch.tensor([[1.0, 4.0], [3.0, 3.0]])))
print("jacrev:", jacrev(loss)(scores))
print("per dim:", grad(lambda s: -s.max(dim=0).values)(scores))
