import torch

x = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
mask = x > 0
print(mask)
print(x[mask])
print(x[x < 0])
print(x[mask].shape, mask.sum(), mask.sum().item())
print(x[torch.tensor([True, False])])
print(x[:, torch.tensor([True, False, True])])
print(x[x > 100])
print(x.masked_select(mask))
print(x.masked_fill(~mask, 0.0))
print(torch.nonzero(mask))
print(mask.nonzero(as_tuple=True))
print(x[(x > -5) & (x < 4)])
print(x[(x < -5) | (x > 4)])
print(x[~mask])
t = torch.arange(6)
print(t[t % 2 == 0], t[t >= 3].sum())
print(t[[True, False, True, False, True, False]])
try:
    print(x[torch.tensor([True, False, True])])
except IndexError as e:
    print("IndexError:", e)
