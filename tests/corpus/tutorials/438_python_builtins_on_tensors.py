import torch

x = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(len(x), len(x[0]))
for row in x:
    print(row, row.sum())
for i, row in enumerate(x):
    print(i, row.tolist())
it = iter(x)
print(next(it))
print(list(x[0]), [v.item() for v in x[1]])
print(list(torch.arange(3.0)))
parts = [torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]), torch.tensor([5.0, 6.0])]
print(sum(parts))
print(sum(p.sum() for p in parts))
print(max(torch.tensor([3, 9, 2])), min(torch.tensor([3.5, -1.0])))
print(max(parts, key=lambda p: p.sum().item()))
print(sorted(torch.tensor([3, 1, 2])))
print(abs(torch.tensor([-1.5, 2.0])), -torch.tensor([1, -2]), +torch.tensor([1]))
print(round(torch.tensor(2.567).item(), 2), divmod(7, 2))
print(int(x[0, 0]), float(x[1, 2]), bool(torch.tensor([0])), bool(torch.tensor(1.0)))
print(torch.tensor(3) in [1, 2, 3], 2 in torch.tensor([1, 2, 3]))
for a, b in zip(torch.tensor([1, 2]), torch.tensor([10, 20])):
    print(a + b)
print(any(torch.tensor([False, True])), all(torch.tensor([True, True])))
print(isinstance(x, torch.Tensor), type(x).__name__, type(x))
print(str(torch.tensor([1.5])), repr(torch.tensor(2)))
print(x.size(0), x.shape[0] * x.shape[1])
try:
    bool(torch.tensor([1, 2]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    len(torch.tensor(5))
except TypeError as e:
    print("TypeError:", e)
try:
    for v in torch.tensor(3.0):
        print(v)
except TypeError as e:
    print("TypeError:", e)
if torch.tensor(2.0) > 1:
    print("greater")
while torch.tensor([1]).sum() < 0:
    break
print(x is x, x.max() > 5, (x > 0).all())
