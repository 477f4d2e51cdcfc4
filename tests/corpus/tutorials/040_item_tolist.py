import torch

t = torch.tensor([[1.5, 2.0], [3.25, -4.0]])
print(t.sum().item())
print(type(t.sum().item()))
print(t.tolist())
print(t[0].tolist())
print(torch.tensor(7).item(), type(torch.tensor(7).item()))
print(torch.tensor([0.1, 0.2]).tolist())
print(torch.tensor([1, 2, 3]).tolist())
print(len(t), t.shape, t.size(), t.size(1), t.dim(), t.numel())
