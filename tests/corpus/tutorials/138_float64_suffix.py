import torch

x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
print(x)
y = (x ** 2).sum()
print(y)
y.backward()
print(x.grad)

d = torch.DoubleTensor([0.1, 0.2])
print(d, d.dtype)
print(d + torch.tensor([1.0, 1.0]))
print(torch.zeros(2, 2, dtype=torch.double))
print(torch.arange(3, dtype=torch.float64))
print(x.float())
print(torch.tensor(1 / 3, dtype=torch.float64), torch.tensor(1 / 3))
print(torch.tensor(1 / 3, dtype=torch.float64).item(), torch.tensor(1 / 3).item())
print(torch.tensor([1.5, 2.5], dtype=torch.float16))
print(torch.ones(2, dtype=torch.int32), torch.ones(2, dtype=torch.uint8))
