import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y[1] = 10.0            # in place on a non-leaf: recorded by autograd
print(y)
print(y.grad_fn.name())

y.sum().backward()
print(x.grad)           # the overwritten element gets no gradient

z = torch.zeros(2, 3)
z[0] = torch.tensor([1.0, 2.0, 3.0])
z[1, 2] = -1.0
z[:, 0] = 5.0
print(z)
