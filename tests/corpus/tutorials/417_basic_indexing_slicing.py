import torch

x = torch.arange(1, 13).reshape(3, 4)
print(x)
print(x[0])
print(x[0, 1], x[0][1])
print(x[-1, -1])
print(x[1:])
print(x[:, 1])
print(x[:, 1:3])
print(x[::2])
print(x[:, ::3])
print(x[1:, 1:][0])
print(x[:2, -2:])
print(x[0:100])
print(x[2:100, 5:])
print(x[1].shape, x[1:2].shape, x[:, 0].shape, x[:, :1].shape)
print(x[1, 2].item(), type(x[1, 2].item()))
v = torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0])
print(v[-3:], v[:-3], v[1:-1], v[::2], v[1::2])
i = 2
print(v[i], v[i:i + 2])
try:
    print(x[3])
except IndexError as e:
    print("IndexError:", e)
try:
    print(x[0, 4])
except IndexError as e:
    print("IndexError:", e)
try:
    print(x[0, 0, 0])
except IndexError as e:
    print("IndexError:", e)
