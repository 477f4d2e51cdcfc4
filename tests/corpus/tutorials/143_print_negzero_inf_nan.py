import torch

print(torch.tensor([-0.0, 0.0, 1.0]))
print(torch.tensor(-0.0))
print(-torch.zeros(3))
print(torch.tensor([float('inf'), -float('inf'), float('nan'), 1.5]))
print(torch.tensor([1.0, 0.0, -1.0]) / 0)
print(torch.log(torch.tensor([0.0, 1.0, -1.0])))
print(torch.tensor([float('nan')]))
print(torch.tensor(float('inf')))
print(torch.tensor([1e-3, float('inf')]))
print(torch.tensor([123456.0, float('nan')]))

x = torch.tensor([0.0, 1.0], requires_grad=True)
y = torch.sqrt(x)
y.sum().backward()
print(y, x.grad)
print(torch.tensor([-1.0, 2.0]) * 0)
