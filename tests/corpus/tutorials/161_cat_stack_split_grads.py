import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0, 5.0], requires_grad=True)

c = torch.cat([a, b])
print(c)
weights = torch.arange(1.0, 6.0)
(c * weights).sum().backward()
print(a.grad, b.grad)

s = torch.stack([a, a * 2], dim=1)
print(s)
first, second = torch.split(c.detach(), [2, 3])
print(first, second)
print(torch.chunk(torch.arange(7), 3))
print(torch.unbind(torch.eye(2)))

a.grad = None
parts = torch.cat([a, a]).chunk(2)
(parts[0] * 3 + parts[1]).sum().backward()
print(a.grad)
