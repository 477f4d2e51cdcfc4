import torch
from torch.func import grad, grad_and_value


def f(x):
    y = (x ** 2).sum()
    return y, {"mean": x.mean(), "max": x.max()}


x = torch.tensor([1.0, -2.0, 3.0])
g, aux = grad(f, has_aux=True)(x)
print(g)
print(aux)

g, value = grad_and_value(lambda t: (t.exp() * t).sum())(x)
print(g)
print(value)

(gx, gy), (val, aux) = grad_and_value(lambda a, b: ((a * b).sum(), a + b), argnums=(0, 1), has_aux=True)(x, x * 2)
print(gx, gy)
print(val, aux)
