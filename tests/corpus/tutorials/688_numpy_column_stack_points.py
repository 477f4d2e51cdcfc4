# Building (x, y) point tables with NumPy's column_stack before handing them to torch.
import numpy as np
import torch

xs = np.linspace(0.0, 1.0, 5)
ys = 3.0 * xs + 0.5
table = np.column_stack((xs, ys))
print(table.shape)
print(table)
print(np.column_stack([np.arange(3), np.array([[10], [20], [30]])]))
print(np.dstack((xs[:2], ys[:2])).shape)
try:
    np.column_stack((np.arange(3), np.arange(4)))
except ValueError as e:
    print("ValueError:", e)

pts = torch.from_numpy(table).float()
w = torch.zeros(1, requires_grad=True)
loss = ((pts[:, 0] * w - pts[:, 1]) ** 2).mean()
loss.backward()
print(loss.item(), w.grad)
