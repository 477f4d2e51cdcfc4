import torch

x = torch.ones(3, 4, requires_grad=True)
b = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
c = torch.tensor([[10.0], [20.0], [30.0]], requires_grad=True)
s = torch.tensor(2.0, requires_grad=True)

y = x * b + c * s
print(y.shape)
y.sum().backward()

print(b.grad)   # summed over the broadcast dimension
print(c.grad)
print(s.grad)
print(x.grad.shape)
