# Class labels to one-hot rows, and the sizes view/reshape can infer: what a notebook tries
# before it gets the dtype and the shapes right.
import torch
import torch.nn.functional as F

labels = torch.tensor([2, 0, 1, 2])
print(F.one_hot(labels))
print(F.one_hot(labels, num_classes=4).float())

# labels that are not int64 are refused, even whole numbers stored as floats or int32
for bad in [labels.float(), labels.int(), labels.to(torch.uint8), labels > 0]:
    try:
        F.one_hot(bad, 3)
    except RuntimeError as e:
        print(bad.dtype, "->", e)

for lab, n in [(torch.tensor([-1, 0]), 3), (torch.tensor([3]), 3), (torch.tensor([1]), 0)]:
    try:
        F.one_hot(lab, n)
    except RuntimeError as e:
        print(lab.tolist(), n, "->", e)

empty = torch.tensor([], dtype=torch.long)
print(F.one_hot(empty, 5).shape)
for n in [-1, 0]:
    try:
        F.one_hot(empty, n)
    except RuntimeError as e:
        print("empty", n, "->", e)

# one-hot rows times a weight matrix pick its rows: the gradient lands on the picked rows
W = torch.arange(12.0).reshape(3, 4).requires_grad_()
picked = F.one_hot(labels, 3).float() @ W
picked.sum().backward()
print(picked)
print(W.grad)

# inferring a size with -1
x = torch.arange(12.0)
print(x.view(3, -1).shape, x.reshape(-1, 6).shape, torch.zeros(0, 4).reshape(-1).shape)
print(torch.zeros(0, 4).view(-1, 4).shape, torch.zeros(0, 4).view(2, 0, 3).shape)
for shape in [(0, -1), (-1, 0), (5, -1), (-1, -1), (-2, 6), (4, -3), (-1, -4)]:
    for src in [x, torch.zeros(0, 4)]:
        try:
            print(src.view(*shape).shape)
        except RuntimeError as e:
            print(list(src.shape), shape, "->", e)
try:
    torch.reshape(x, (2, -7))
except RuntimeError as e:
    print(e)
