import torch

# One-hot targets and per-class sums with scatter / scatter_add / index_add, and their gradients.
labels = torch.tensor([2, 0, 1, 2])
one_hot = torch.zeros(4, 3).scatter_(1, labels.unsqueeze(1), 1.0)
print(one_hot)

values = torch.tensor([0.5, -1.0, 2.0, 3.0], requires_grad=True)
sums = torch.zeros(3).scatter_add(0, labels, values)
print(sums)
counts = torch.zeros(3).index_add(0, labels, torch.ones(4))
means = sums / counts
print(means)
means.sum().backward()
print(values.grad)

# scatter overwrites: the gradient of what was overwritten is zero.
base = torch.arange(6.0).reshape(2, 3).requires_grad_()
src = torch.full((1, 3), -1.0, requires_grad=True)
out = base.scatter(0, torch.tensor([[1, 0, 1]]), src)
print(out)
(out * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
print(base.grad)
print(src.grad)

# index_fill and masked_fill, out of place and in place.
t = torch.arange(12.0).reshape(3, 4)
print(t.index_fill(1, torch.tensor([0, 3]), 0.0))
t.masked_fill_(t > 8, -1.0)
print(t)
try:
    torch.zeros(3).scatter_(0, torch.tensor([3]), 1.0)
except RuntimeError as e:
    print(e)
