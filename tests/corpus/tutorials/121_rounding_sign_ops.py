import torch

x = torch.tensor([-2.5, -1.5, -0.4, 0.0, 0.5, 1.5, 2.7], requires_grad=True)
print(torch.floor(x))
print(torch.ceil(x))
print(torch.round(x))
print(torch.round(torch.tensor([1.2345, -2.5678]), decimals=2))
print(torch.trunc(x))
print(torch.frac(x))
print(torch.sign(x))
print(torch.heaviside(x.detach(), torch.tensor(0.5)))

y = (torch.floor(x) + torch.frac(x) * 2 + torch.sign(x) + torch.round(x)).sum()
y.backward()
print(x.grad)

bad = torch.tensor([float('nan'), float('inf'), -float('inf'), 1.0])
print(torch.nan_to_num(bad))
print(torch.nan_to_num(bad, nan=0.0, posinf=100.0, neginf=-100.0))
