import torch

x = torch.tensor([[1.0, 5.0, 2.0], [4.0, 3.0, 6.0]])
print(x.sum(), x.sum(0), x.sum(1), x.sum(dim=1, keepdim=True))
print(x.sum(dim=(0, 1)), x.sum(dim=-1), torch.sum(x, 0, keepdim=True).shape)
print(x.mean(), x.mean(0), x.mean(dim=1, keepdim=True))
print(x.prod(), x.prod(1))
print(x.max(), x.min(), x.max().item())
print(x.max(dim=1))
print(x.max(0, keepdim=True))
values, indices = x.min(dim=0)
print(values, indices)
r = x.max(1)
print(r.values, r.indices, r[0], r[1])
print(torch.max(x, 1)[0])
print(torch.amax(x, dim=0), torch.amin(x, dim=(0, 1)))
print(x.std(), x.var(dim=1), x.std(dim=0, unbiased=False), x.var(correction=0))
print(x.median(), x.median(dim=1))
print(x.norm(), x.norm(dim=1), x.norm(p=1))
print(x.cumsum(0), x.cumsum(dim=1), x.cumprod(1))
print(x.logsumexp(dim=1))
print(torch.sum(torch.arange(5)), torch.arange(5).sum().dtype, torch.arange(5).float().mean())
print(x.sum(0).shape, x.sum(0, keepdim=True).shape, x.mean((0, 1), keepdim=True).shape)
try:
    x.sum(dim=2)
except IndexError as e:
    print("IndexError:", e)
try:
    x.max(dim=3)
except IndexError as e:
    print("IndexError:", e)
