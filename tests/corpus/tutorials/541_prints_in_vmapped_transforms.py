# Per-sample gradients with vmap(grad(...)) and debugging prints inside: the weights and the
# constants a function makes are wrapped at grad's level, which PyTorch numbers after vmap's.
import torch
from torch.func import grad, vmap, jacrev, jacfwd, hessian

torch.manual_seed(0)
weights = torch.randn(3)
inputs = torch.randn(4, 3)
targets = torch.randn(4)


def sample_loss(w, x, y):
    print("weights inside:", w)
    scale = torch.tensor(0.5)
    print("scale:", scale)
    pred = (w * x).sum()
    return scale * (pred - y) ** 2


per_sample = vmap(grad(sample_loss), in_dims=(None, 0, 0))(weights, inputs, targets)
print(per_sample)


def squash(v):
    offset = torch.ones(1)
    print("offset:", offset)
    return torch.tanh(v + offset)


print(vmap(jacrev(squash))(inputs[:2]).shape)
print(vmap(jacfwd(squash))(inputs[:2]).shape)
print(vmap(hessian(lambda v: print("in hessian:", torch.zeros(2)) or (v ** 3).sum()))(inputs[:2]).shape)


def total(w):
    def one(x):
        bias = torch.tensor([0.1])
        print("bias:", bias)
        return (w * x).sum() + bias

    return vmap(one)(inputs).sum()


print(grad(total)(weights))
