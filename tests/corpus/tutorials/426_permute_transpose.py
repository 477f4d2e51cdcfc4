import torch

x = torch.arange(24).reshape(2, 3, 4)
print(x.permute(2, 0, 1).shape)
print(x.permute(0, 2, 1))
print(x.transpose(0, 1).shape, x.transpose(-1, -2).shape, torch.transpose(x, 0, 2).shape)
print(x.swapaxes(0, 1).shape, x.movedim(0, -1).shape)
m = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(m.t(), m.T, m.mT)
print(torch.t(m).shape)
v = torch.tensor([1, 2, 3])
print(v.t(), v.T)
p = x.permute(1, 2, 0)
print(p.is_contiguous(), p.stride(), p.contiguous().stride())
p[0, 0, 0] = -1
print(x[0, 0])
try:
    x.permute(0, 1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.permute(0, 1, 1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.t()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.transpose(0, 3)
except IndexError as e:
    print("IndexError:", e)
