import torch

torch.manual_seed(0)

# Create a tensor with requires_grad=True
x = torch.randn(2, 2, requires_grad=True)
print(x)

y = x.pow(2).sum()
y.backward()
print(x.grad)

v = torch.rand(2, 2)
z = x * 3
z.backward(gradient=v)
print(v)
print(x.grad)
