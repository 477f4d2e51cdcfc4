import torch

x = torch.arange(12).reshape(3, 4) * 10
print(x[[0, 2]])
print(x[torch.tensor([2, 0, 1])])
print(x[[0, 1, 2], [3, 2, 1]])
print(x[torch.tensor([0, 2]), 1])
print(x[:, [0, 3]])
print(x[[0, 2]][:, [1, 2]])
print(x[[[0], [2]], [1, 3]])
idx = torch.tensor([[0, 1], [2, 2]])
print(x[idx].shape)
print(x[idx, 0])
print(x[-1, [0, -1]])
v = torch.tensor([5.0, 6.0, 7.0, 8.0])
print(v[[3, 3, 0]])
print(v[torch.tensor([1])], v[torch.tensor(1)])
print(v.index_select(0, torch.tensor([0, 2])))
print(torch.gather(x, 1, torch.tensor([[0], [1], [2]])))
print(x.take(torch.tensor([0, 5, 11])))
try:
    print(v[[4]])
except IndexError as e:
    print("IndexError:", e)
try:
    print(v[torch.tensor([1.0])])
except IndexError as e:
    print("IndexError:", e)
try:
    print(x[[0, 1], [0, 1, 2]])
except IndexError as e:
    print("IndexError:", e)
