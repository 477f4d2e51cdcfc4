# Counting and running statistics with NumPy's ufunc methods next to a small PyTorch model:
# np.add.at for label counts, running maxima, outer tables and segment sums.
import numpy as np
import torch

torch.manual_seed(0)
labels = torch.randint(0, 4, (12,))
counts = np.zeros(4, dtype=np.int64)
np.add.at(counts, labels.numpy(), 1)
print("labels:", labels.tolist())
print("counts:", counts, counts.sum() == len(labels))

losses = np.array([0.9, 0.7, 0.75, 0.5, 0.55, 0.3, 0.35])
print("best so far:", np.minimum.accumulate(losses))
print("running total:", np.add.accumulate(losses).round(3))
print("sum of all:", np.add.reduce(losses).round(3), np.multiply.reduce([1, 2, 3, 4]))

steps = np.arange(1, 4)
print(np.multiply.outer(steps, steps))
print(np.subtract.outer([10, 20], [1, 2, 3]))
print(np.equal.outer([0, 1, 2], [2, 1]))

values = np.arange(10.0)
print("segment sums:", np.add.reduceat(values, [0, 3, 7]))
grid = np.arange(12).reshape(3, 4)
print(
    np.maximum.reduce(grid, axis=1),
    np.add.reduce(grid, axis=None),
    np.add.reduce(grid, keepdims=True),
)
print(repr(np.add.reduce(np.arange(4), dtype=np.float32)), np.minimum.reduce([3, 1, 2], initial=0))

x = torch.linspace(0, 1, 5)
print(np.add.reduce(x), np.maximum.accumulate(torch.tensor([1.0, 3.0, 2.0, 5.0])))

table = np.zeros((2, 3))
np.add.at(table, (np.array([0, 1, 0]), np.array([2, 0, 2])), np.array([1.5, 2.0, 0.25]))
print(table)

print(np.add, np.exp, np.abs, np.add.nin, np.add.identity, np.maximum.identity, np.add.__name__)
for bad in (lambda: np.maximum.reduce([]), lambda: np.sin.reduce([1.0, 2.0])):
    try:
        bad()
    except ValueError as e:
        print("ValueError:", e)
