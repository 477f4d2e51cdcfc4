import torch

x = torch.tensor([1, 2, 3, 4, 5, 6])
y = x.view(2, 3)
print(y, y.shape)
z = x.view(-1, 2)
print(z)
y[0, 0] = 99
print(x)
print(x.view(3, 2).view(6))
print(x.reshape(1, -1), x.reshape(-1))

m = torch.arange(12).reshape(3, 4)
t = m.T
print(t.is_contiguous(), m.is_contiguous())
try:
    t.view(12)
except RuntimeError as e:
    print("RuntimeError:", e)
print(t.reshape(12))
print(t.contiguous().view(12))
print(t.contiguous().is_contiguous())
print(m.view(2, 2, 3).shape, m.view(torch.Size([4, 3])).shape, m.view((6, 2)).shape)
print(m.flatten(), m.flatten().shape, torch.arange(24).reshape(2, 3, 4).flatten(1).shape)
print(m.view_as(torch.zeros(2, 6)))
print(m.reshape_as(torch.zeros(6, 2)).shape)
try:
    m.view(5, -1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    m.reshape(-1, -1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    m.view(7)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.reshape(m, (2, -1)))
print(m.unflatten(1, (2, 2)).shape)
