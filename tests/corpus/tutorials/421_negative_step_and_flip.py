import torch

x = torch.arange(6)
try:
    print(x[::-1])
except ValueError as e:
    print("ValueError:", e)
try:
    print(x[4:1:-1])
except ValueError as e:
    print("ValueError:", e)
try:
    print(x[::0])
except ValueError as e:
    print("ValueError:", e)
print(x.flip(0))
print(torch.flip(x, dims=[0]))
m = torch.arange(6).reshape(2, 3)
print(m.flip(1), m.flip(0, 1), torch.fliplr(m), torch.flipud(m))
print(m[:, torch.arange(2, -1, -1)])
print(x[torch.arange(x.numel() - 1, -1, -1)])
print(list(reversed(x.tolist())))
print(torch.roll(x, 2), torch.roll(m, 1, dims=1))
