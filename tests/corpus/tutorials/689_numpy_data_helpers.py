# NumPy helpers people use while preparing data for a small torch model.
import numpy as np
import torch

np.random.seed(3)
raw = np.random.normal(0.0, 1.0, size=(6, 3))
raw[1, 2] = np.nan
clean = np.nan_to_num(raw, nan=0.0)
print(np.round(np.nanmean(raw, axis=0), 4), np.nanmax(raw).round(4))
angles = np.arctan2(clean[:, 1], clean[:, 0])
print(np.round(np.degrees(angles), 2))
print(np.diff(np.cumsum([3, 1, 4, 1, 5])), np.roll(np.arange(6), -2))
print(np.triu(np.arange(9).reshape(3, 3)), np.tril(np.ones((3, 3)), -1).sum())
print(np.array_split(np.arange(10), 4))
print(np.digitize([0.1, 0.5, 0.9], [0.25, 0.75]), np.searchsorted([10, 20, 30], 25))
print(np.interp(2.5, [1, 2, 3], [1.0, 4.0, 9.0]), np.trapezoid([0.0, 1.0, 4.0, 9.0], dx=0.5))
print(np.gradient(np.array([0.0, 1.0, 4.0, 9.0, 16.0]), 0.5))
print(np.average([2.0, 4.0, 8.0], weights=[1, 1, 2]), np.ptp(clean, axis=0).round(3))
print(np.append(np.arange(3), [[9, 9]]), np.delete(np.arange(6), [1, 4]))
print(np.argwhere(np.eye(3) > 0).tolist(), np.moveaxis(np.zeros((2, 3, 5)), -1, 0).shape)

features = torch.from_numpy(np.atleast_2d(clean).astype(np.float32))
w = torch.ones(3, requires_grad=True)
score = (features @ w).sigmoid().mean()
score.backward()
print(score, w.grad)
try:
    np.swapaxes(np.zeros(3), 0, 1)
except Exception as e:
    print(type(e).__name__, e)
