# Checking the kinds of numbers a data pipeline produces before it builds tensors, then
# index grids and 2-d histograms of the data: the helpers a preprocessing notebook reaches for.
import numpy as np
import torch


def describe(values):
    arr = np.asarray(values)
    if np.issubdtype(arr.dtype, np.integer):
        return "integers -> " + str(torch.as_tensor(arr).dtype)
    if np.issubdtype(arr.dtype, np.floating):
        return "floats -> " + str(torch.as_tensor(arr).dtype)
    return "other"


print(describe([1, 2, 3]), describe(np.linspace(0, 1, 3, dtype=np.float32)), describe([True]))
sample = np.float32(0.5) * 3
print(
    isinstance(sample, np.floating),
    isinstance(sample, float),
    isinstance(np.int8(3), np.signedinteger),
)
print(
    np.result_type(np.arange(3), 0.5),
    np.promote_types(np.int16, np.float16),
    np.can_cast(np.int64, np.float64),
)
print(np.issubdtype(np.complex64, np.complexfloating), np.floating, np.number)

grid = np.fromfunction(lambda i, j: (i + 1) * (j + 2), (3, 4), dtype=int)
print(grid)
total = 0
for i, j in np.ndindex(grid.shape):
    total += grid[i, j] * (i == j)
print(total, np.trace(grid))
print([(idx, float(v)) for idx, v in np.ndenumerate(grid[:1, :2])])

rng = np.random.default_rng(8)
pts = rng.normal(size=(200, 2))
counts, xe, ye = np.histogram2d(pts[:, 0], pts[:, 1], bins=3, range=[[-3, 3], [-3, 3]])
print(counts, xe, np.histogram_bin_edges(pts[:, 0], bins=4, range=(-2, 2)))
print(np.iterable(pts), np.iterable(2.0))
