import torch
from torch.func import hessian, jacfwd, jacrev


def f(x):
    return x.sin().sum() + (x[0] * x[1]) ** 2


x = torch.tensor([1.0, 2.0])
H = hessian(f)(x)
print(H)
H2 = jacfwd(jacrev(f))(x)
print(torch.allclose(H, H2))


def g(a, b):
    return (a ** 2 * b).sum()


print(hessian(g, argnums=1)(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
