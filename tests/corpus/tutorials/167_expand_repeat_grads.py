import torch

v = torch.tensor([1.0, 2.0], requires_grad=True)
e = v.expand(3, 2)
r = v.repeat(3, 1)
print(e)
print(r)
(e * torch.tensor([[1.0], [2.0], [3.0]])).sum().backward()
print(v.grad)

v.grad = None
r = v.repeat(2)
(r ** 2).sum().backward()
print(r, v.grad)
print(v.detach().expand_as(torch.zeros(2, 2)))
print(torch.ones(2, 1).expand(-1, 3))
