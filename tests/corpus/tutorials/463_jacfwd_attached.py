import torch
from torch.autograd.functional import jacobian


def f(x):
    return torch.stack([x[0] * x[1], torch.sin(x[2]), x.sum() ** 2])


def g(x):
    return (x ** 3).sum()


x = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
J = jacobian(f, x, vectorize=True, strategy="forward-mode")
print(J)
print(J.requires_grad)
Jg = jacobian(g, x, vectorize=True, strategy="forward-mode")
print(Jg)
# the Jacobian is still a function of x: differentiate it once more
Jg.sum().backward()
print(x.grad)

# the same input without requires_grad gives a plain tensor
x0 = x.detach()
print(jacobian(f, x0, vectorize=True, strategy="forward-mode"))
print(jacobian(f, x, vectorize=True))
print(jacobian(f, x, create_graph=True))
