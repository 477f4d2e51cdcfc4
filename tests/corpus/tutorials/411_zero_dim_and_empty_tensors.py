import torch

s = torch.tensor(3.5)
print(s, s.shape, s.ndim, s.dim(), s.numel())
print(s.size(), len(s.shape))
print(s + 1, s * torch.tensor([1.0, 2.0]))
print(s.unsqueeze(0), s.reshape(1, 1), s.view(-1))

e = torch.tensor([])
print(e, e.shape, e.dtype, e.numel())
print(torch.zeros(0, 3))
print(torch.ones(2, 0, 4))
print(torch.empty(0, dtype=torch.int64))
print(e.sum(), torch.zeros(0, 3).sum(0), torch.zeros(0, 3).sum(1))
print(e.mean())
print(torch.zeros(3, 0).mean(1))
print(e.prod())
print(torch.arange(5)[5:], torch.arange(5)[3:1])
print(torch.cat([torch.tensor([]), torch.tensor([1.0, 2.0])]))
try:
    e.max()
except RuntimeError as err:
    print("RuntimeError:", err)
try:
    torch.tensor([[1.0], []])
except ValueError as err:
    print("ValueError:", err)
