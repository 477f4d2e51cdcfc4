# torch.func.functionalize: a function written with in-place updates gives the same values
# (and gradients) when its mutations are removed; composed with grad and vmap.
import torch
from torch.func import functionalize, grad, vmap


def scaled_update(a):
    buf = a.clone()
    buf.add_(1)
    flat = buf.view(-1)
    flat.mul_(2)
    return (buf * a).sum()


def bump(a):
    a.add_(1)
    return a * 3


x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = functionalize(scaled_update)(x)
print(y, scaled_update(x.detach()))
y.backward()
print(x.grad)
print(grad(functionalize(scaled_update))(torch.tensor([1.0, 2.0])))
print(vmap(functionalize(scaled_update))(torch.arange(6.0).reshape(2, 3)))
z = torch.zeros(2)
print(functionalize(bump)(z), z)
print(functionalize(scaled_update, remove="mutations_and_views")(torch.ones(2)))
try:
    functionalize(bump, remove="views")
except RuntimeError as e:
    print(e)
