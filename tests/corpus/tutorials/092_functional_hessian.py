import torch
from torch.autograd.functional import hessian


def pow_reducer(x):
    return x.pow(3).sum()


x = torch.tensor([[1.0, -1.0], [0.5, 2.0]])
H = hessian(pow_reducer, x)
print(H.shape)
print(H.reshape(4, 4))


def rosenbrock(v):
    return (1 - v[0]) ** 2 + 100 * (v[1] - v[0] ** 2) ** 2


p = torch.tensor([1.0, 1.0])
print(hessian(rosenbrock, p))


def two_args(a, b):
    return (a * b).sum() + (a ** 2).sum()


ha = hessian(two_args, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
print(ha[0][1])
print(ha[1][1])
