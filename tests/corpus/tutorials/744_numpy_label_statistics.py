# Looking at a toy dataset with NumPy before training on it, as notebooks do: class counts with
# np.unique, one-hot targets from np.eye / np.zeros_like, robust statistics (median,
# percentiles), a feature map with np.outer / np.tile / np.repeat, and np.inf / np.nan as
# sentinels; then the arrays become tensors for a short softmax-regression fit.
import numpy as np
import torch
import torch.nn.functional as F

np.random.seed(21)
X = np.random.randn(30, 2).astype(np.float32)
y = (X[:, 0] > 0).astype(np.int64) + (X[:, 1] > 0.5).astype(np.int64)
classes, counts = np.unique(y, return_counts=True)
print(classes, counts, np.count_nonzero(y == 2))
print(np.median(X, axis=0), np.percentile(X[:, 0], [10, 90]))
print(np.any(np.isnan(X)), np.all(np.isfinite(X)), np.array_equal(np.flip(np.flip(X)), X))

onehot = np.zeros_like(X[:, :1].repeat(3, axis=1))
onehot[np.arange(len(y)), y] = 1
print(onehot[:4], onehot.sum(axis=0))
print(np.outer([1, 2], [3, 4, 5]), np.tile([0, 1], 3), np.repeat([7, 8], [2, 1]))
print(np.expand_dims(counts, 0).shape, np.log1p(counts), np.sign(X[:3, 0]), np.floor(X[:3, 1] * 4))

best = np.inf
W = torch.zeros(2, 3, requires_grad=True)
xs, ts = torch.from_numpy(X), torch.from_numpy(y)
for step in range(15):
    loss = F.cross_entropy(xs @ W, ts)
    loss.backward()
    with torch.no_grad():
        W -= 0.5 * W.grad
        W.grad.zero_()
    best = min(best, loss.item())
print(round(best, 6), np.isinf(np.inf), np.nan == np.nan)
