# Debugging a function under torch.func.grad with print(): every tensor computed while the
# transform runs is a GradTrackingTensor, constants made there included; tensors from outside
# print as they are.
import torch
import torch.nn as nn
from torch.func import functional_call, grad, jacrev, vjp

torch.manual_seed(0)
scale = torch.tensor([2.0, 0.5, 1.0])


def energy(x):
    ones = torch.ones(3)
    print("ones:", ones)
    print("scale (from outside):", scale)
    shifted = x - 1
    print("shifted:", shifted)
    weights = scale * ones
    print("weights:", weights)
    print("mask:", x > 1.5)
    print("as a list:", [torch.zeros(1)])
    return (weights * shifted ** 2).sum()


x = torch.tensor([1.0, 2.0, 3.0])
print("grad:", grad(energy)(x))

model = nn.Linear(2, 1)
params = {k: v.detach() for k, v in model.named_parameters()}
data = torch.randn(4, 2)


def loss(p, inputs):
    out = functional_call(model, p, (inputs,))
    print("bias inside:", p["bias"])
    target = torch.zeros_like(out)
    print("target:", target)
    return ((out - target) ** 2).mean()


g = grad(loss)(params, data)
print({k: v.shape for k, v in g.items()})


def rotate(v):
    r = torch.tensor([[0.0, -1.0], [1.0, 0.0]])
    print("r:", r)
    return r @ v


out, pullback = vjp(rotate, torch.tensor([1.0, 2.0]))
print(out, pullback(torch.ones(2)))
print(jacrev(lambda v: (print("eye:", torch.eye(2)), v.sin() * 2)[1])(torch.tensor([0.0, 1.0])))
