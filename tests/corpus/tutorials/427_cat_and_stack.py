import torch

a = torch.tensor([[1, 2], [3, 4]])
b = torch.tensor([[5, 6]])
print(torch.cat([a, b]))
print(torch.cat((a, a), dim=1))
print(torch.cat([a, a], dim=-1).shape)
print(torch.stack([a, a]).shape, torch.stack([a, a], dim=1).shape, torch.stack([a, a], dim=2))
print(torch.stack([torch.tensor(1.0), torch.tensor(2.0)]))
print(torch.hstack([torch.tensor([1, 2]), torch.tensor([3])]))
print(torch.vstack([torch.tensor([1, 2]), torch.tensor([3, 4])]))
print(torch.dstack([torch.tensor([1, 2]), torch.tensor([3, 4])]).shape)
print(torch.column_stack([torch.tensor([1, 2]), torch.tensor([3, 4])]))
print(torch.cat([torch.tensor([1, 2]), torch.tensor([0.5])]))
rows = [torch.full((3,), float(i)) for i in range(3)]
print(torch.stack(rows))
print(torch.cat(rows))
try:
    torch.cat([a, torch.tensor([[5, 6, 7]])])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.stack([a, b])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.cat([a, a], dim=2)
except IndexError as e:
    print("IndexError:", e)
try:
    torch.cat([])
except ValueError as e:
    print("ValueError:", e)
try:
    torch.cat([a, torch.tensor(1)])
except RuntimeError as e:
    print("RuntimeError:", e)
