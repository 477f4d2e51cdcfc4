import torch
from torch.func import jacrev, jacfwd

x = torch.tensor([0.5, 1.0, -1.0])
J = jacrev(torch.sin)(x)
print(J)
print(torch.allclose(J, torch.diag(torch.cos(x))))


def f(x, y):
    return x * y.sum() + x ** 2


y = torch.tensor([1.0, 2.0])
print(jacrev(f, argnums=1)(x, y))
jx, jy = jacfwd(f, argnums=(0, 1))(x, y)
print(jx)
print(jy)

jac, out = jacrev(lambda t: (t.exp(), t.exp()), has_aux=True)(x)
print(jac.shape, out)
print(torch.allclose(jacrev(f)(x, y), jacfwd(f)(x, y)))
