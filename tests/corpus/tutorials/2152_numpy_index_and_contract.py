# Notebook helpers around a PyTorch model: where is the largest activation, contracting
# feature maps with np.tensordot, broadcasting shapes, triangle indices of a correlation
# matrix, and a few in-place edits of NumPy arrays.
import numpy as np
import torch
from numpy.lib.stride_tricks import sliding_window_view

torch.manual_seed(1)
conv = torch.nn.Conv2d(1, 2, 3)
with torch.no_grad():
    fmap = conv(torch.arange(36.0).reshape(1, 1, 6, 6) / 36).numpy().astype(np.float64)
where = np.unravel_index(np.argmax(fmap), fmap.shape)
print("argmax at", where, [int(i) for i in where])
print(np.ravel_multi_index(([0, 0], [1, 0], [2, 3], [3, 2]), fmap.shape))

weights = np.arange(8.0).reshape(2, 4) / 8
features = np.arange(24.0).reshape(3, 2, 4)
print(np.tensordot(features, weights, axes=([1, 2], [0, 1])))
print(np.tensordot(weights, weights.T, axes=1))
print(np.inner(weights, weights), np.inner(3, [1, 2]))

bias = np.broadcast_to(np.array([0.5, -0.5]), (3, 2))
print(bias)
rows, cols = np.broadcast_arrays(np.arange(3)[:, None], np.arange(2))
print(rows.tolist(), cols.tolist(), np.broadcast_shapes((3, 1), (1, 2), (2,)))

corr = np.corrcoef(np.arange(12.0).reshape(3, 4) ** 1.5)
iu = np.triu_indices(3, k=1)
print(iu, np.round(corr[iu], 6), np.tril_indices_from(corr)[0])
print(np.tri(3, dtype=np.int64), np.diag_indices(2), np.indices((2, 2)).shape)

grid = np.zeros((3, 3))
np.fill_diagonal(grid, [1, 2, 3])
scores = np.array([[0.1, 0.7, 0.2], [0.5, 0.2, 0.3]])
best = np.argmax(scores, axis=1)[:, None]
np.put_along_axis(scores, best, 1.0, axis=1)
buffer = np.empty_like(scores)
np.copyto(buffer, scores)
print(grid, scores, buffer.sum(), sep="\n")

series = np.array([1.0, 3.0, 2.0, 5.0, 4.0, 6.0])
windows = sliding_window_view(series, 3)
print(windows, windows.mean(axis=1))
print(np.vander([1, 2, 3], 3), np.polyder([3, 2, 1]), np.polymul([1, 1], [1, -1]))
print(
    np.geomspace(1, 1000, 4), np.hsplit(np.arange(6), 3), np.block([[np.eye(2), np.ones((2, 1))]])
)
print(
    np.select([series < 2, series > 4], [-series, series], 0),
    np.isscalar(2.5),
    np.iscomplexobj(series),
)
print(np.unique_counts(best.ravel()), np.acos(0.5), np.pow(2, 5), np.concat([[1], [2, 3]]))

try:
    np.unravel_index(100, fmap.shape)
except ValueError as e:
    print("ValueError:", e)
