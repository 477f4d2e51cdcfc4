import torch

torch.manual_seed(0)


def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c


# d2l exercise: change a to a random vector; d is then a vector too
a = torch.randn(size=(3,), requires_grad=True)
d = f(a)
try:
    d.backward()
except RuntimeError as e:
    print(e)
d.sum().backward()
print(a.grad)
print(a.grad == d / a)
print(type(d.grad_fn).__name__)
