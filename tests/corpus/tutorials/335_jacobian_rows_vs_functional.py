import torch
from torch.autograd.functional import jacobian


def func(x):
    return torch.stack([x[0] * x[1], torch.sin(x[2]), x.sum() ** 2])


x = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
y = func(x)
rows = []
for i in range(y.shape[0]):
    (g,) = torch.autograd.grad(y[i], x, retain_graph=True)
    rows.append(g)
J = torch.stack(rows)
print(J)
print(jacobian(func, x))
print(torch.allclose(J, jacobian(func, x)))
Jf = jacobian(func, x, vectorize=True, strategy="forward-mode")
print(Jf)
print(J.shape, J.dtype, J.requires_grad)
