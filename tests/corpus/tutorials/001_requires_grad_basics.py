import torch

# A tensor that autograd tracks
x = torch.tensor([2.0, 3.0], requires_grad=True)
print(x)

y = x ** 2 + 3 * x
print(y)

# y is a vector, so reduce it to a scalar before calling backward()
s = y.sum()
print(s)
s.backward()

# dy/dx = 2x + 3
print(x.grad)
