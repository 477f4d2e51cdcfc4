import torch

a = torch.ones(4)
b = torch.ones(3)
try:
    a + b
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.ones(2, 3) * torch.ones(3, 2)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.ones(8, 133, 1) + torch.ones(8, 10, 64)
except RuntimeError as e:
    print("RuntimeError:", e)
x = torch.zeros(3)
try:
    x += torch.ones(2, 3)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.add_(torch.ones(2, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.tensor([1, 2]).expand(3, 3)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.broadcast_shapes((2, 3), (4, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.where(torch.tensor([True, False, True]), torch.ones(2), 0.0)
except RuntimeError as e:
    print("RuntimeError:", e)
print(x)
