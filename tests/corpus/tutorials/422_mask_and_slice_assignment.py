import torch

x = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
x[x < 0] = 0
print(x)
x[x > 2] = torch.tensor([30.0, 50.0])
print(x)
x[0] = 7
print(x)
x[:, 1] = torch.tensor([8.0, 9.0])
print(x)
x[1, :2] = -1
print(x)
x[[0, 1], [2, 0]] = 100.0
print(x)
x[...] = 2.5
print(x)
y = torch.zeros(5, dtype=torch.int64)
y[torch.tensor([1, 3])] = 4
print(y)
y[1:4] += 1
print(y)
y[y == 0] = -1
print(y)
y[2] = 3.9
print(y)
z = torch.zeros(2, 3)
z[:, None, 1] = torch.tensor([[1.0], [2.0]])
print(z)
z.fill_(3)
print(z)
z[0].zero_()
print(z)
z.masked_fill_(z > 2, -1.0)
print(z)
idx = torch.tensor([0, 2])
w = torch.arange(6.0).reshape(2, 3)
w.index_fill_(1, idx, 0.5)
print(w)
try:
    x[0] = torch.tensor([1.0, 2.0])
except RuntimeError as e:
    print("RuntimeError:", e)
