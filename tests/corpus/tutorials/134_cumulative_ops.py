import torch

x = torch.tensor([1.0, 3.0, 2.0, 5.0, 4.0], requires_grad=True)
print(torch.diff(x))
print(torch.cumsum(x, dim=0))
print(torch.cumprod(x, dim=0))
print(torch.cummax(x, dim=0))
values, indices = torch.cummin(x, dim=0)
print(values, indices)
print(torch.logcumsumexp(x, dim=0))

torch.cumprod(x, dim=0).sum().backward()
print(x.grad)

x.grad = None
torch.logcumsumexp(x, dim=0)[-1].backward()
print(x.grad)

m = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(m.cumsum(dim=1), torch.diff(m, dim=0), torch.diff(x.detach(), n=2))
