# Checking a NumPy array's dtype before handing it to torch, as data-loading code does:
# comparisons with NumPy's scalar types, names, Python's types.
import numpy as np
import torch

labels = np.array([0, 2, 1, 1])
features = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
mask = features > 0
for name, arr in [("labels", labels), ("features", features), ("mask", mask)]:
    dt = arr.dtype
    print(f"{name:8s} {dt.name:8s} kind={dt.kind} itemsize={dt.itemsize}")
    print("  int64:", dt == np.int64, " float32:", dt == np.float32, " 'float32':", dt == "float32")
    print("  int:", dt == int, " float:", dt == float, " bool:", dt == bool, " !=f64:", dt != np.float64)
if features.dtype != np.float32:
    features = features.astype(np.float32)
x = torch.from_numpy(features)
y = torch.from_numpy(labels)
print(x.dtype, y.dtype)
print(np.float64 == np.ones(1).dtype, np.ones(1).dtype == "f8", labels.dtype == "i4")
