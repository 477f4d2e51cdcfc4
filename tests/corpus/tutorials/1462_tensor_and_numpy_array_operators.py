# A notebook mixes NumPy arrays into tensor arithmetic: statistics computed with NumPy, masks
# and weights kept as arrays. With a tensor on the left NumPy does the arithmetic (its dtypes);
# with the array on the left most operators fail.
import numpy as np
import torch

torch.manual_seed(0)
data = np.array([[1.0, 2.0, 4.0], [3.0, 6.0, 8.0]])
x = torch.tensor([[0.5, 1.5, 2.5], [3.5, 4.5, 5.5]])
mean, std = data.mean(axis=0), data.std(axis=0)
z = (x - mean) / std
print(z.dtype, z)
print((x * np.array(2.0)).dtype, (x + np.array([1, 2, 3])).dtype, (x / np.float32(2.0)).dtype)
print(x // np.array([1.0, 2.0, 4.0]), x % np.array(2.0))
print(torch.tensor([1, 2, 3]) / np.array([2, 2, 2]), torch.tensor([4, 5]) ** np.array([2, 1]))
flags = torch.tensor([True, False, True])
print(flags * np.array([True, True, False]), flags & np.array([True, True, False]))
print(x == np.array([0.5, 0.0, 2.5]), x != np.array([0.5, 0.0, 2.5]))

# the array on the left
for name, f in [
    ("a + t", lambda: data + x),
    ("a - t", lambda: data - x),
    ("a * t", lambda: np.array(3.0) * x),
    ("a ** t", lambda: data ** x),
    ("a < t", lambda: data < x),
    ("t >= a", lambda: x >= data),
]:
    try:
        f()
    except TypeError as e:
        print(name, "->", e)
print(data / x)
print(np.array(1.0) / torch.tensor([2, 4]))

# augmented assignment: a new tensor, the old one unchanged
y = x.clone()
alias = y
y += np.array([1.0, 1.0, 1.0])
print(y.dtype, alias.dtype, y is alias, alias[0])
counts = torch.tensor([1, 2, 3])
counts *= np.array([0.5, 0.5, 0.5])
print(counts)
arr = np.array([2.0, 4.0])
arr /= torch.tensor([2.0, 8.0])
print(type(arr).__name__, arr)
for op in ["+=", "*="]:
    arr = np.array([2.0, 4.0])
    try:
        if op == "+=":
            arr += torch.tensor([1.0, 1.0])
        else:
            arr *= torch.tensor([1.0, 1.0])
    except TypeError as e:
        print(op, "->", e)

# a tensor that requires grad cannot be read by NumPy
w = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    w * np.array([1.0, 1.0])
except RuntimeError as e:
    print(e)
loss = (w * torch.from_numpy(np.array([3.0, 4.0]))).sum()
loss.backward()
print(loss, w.grad)
