import torch

torch.manual_seed(0)
print(torch.rand(3))
print(torch.randn(2, 3))
print(torch.randn(20))
print(torch.rand(4, dtype=torch.float64))
print(torch.randn(3, dtype=torch.float64))

torch.manual_seed(0)
a = torch.rand(3)
torch.manual_seed(0)
b = torch.rand(3)
print(torch.equal(a, b))
print(torch.initial_seed())

x = torch.randn(3, requires_grad=True)
y = x * 2
y.backward(torch.tensor([0.1, 1.0, 0.0001]))
print(x.grad)
