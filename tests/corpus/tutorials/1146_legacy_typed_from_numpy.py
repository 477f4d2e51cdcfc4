# Labels made in NumPy go into a classifier through the old typed constructors:
# torch.LongTensor(labels) shares the array's memory when the dtypes agree, converts otherwise.
import numpy as np
import torch
import torch.nn.functional as F

torch.manual_seed(3)
features = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(6, 2)
labels = (features.sum(axis=1) > 0).astype(np.int64)

x = torch.FloatTensor(features)
y = torch.LongTensor(labels)
print(x.dtype, y.dtype, y)

# Same dtype: one memory. A change made to the array afterwards shows in the tensor.
labels[0] = 1
print(y)
labels[0] = 0

# Another dtype: a converted copy (floats truncated toward zero, nonzero is True).
scores = np.array([[0.9, -1.7], [2.2, 0.0]])
print(torch.IntTensor(scores))
print(torch.ByteTensor(np.array([3, 250], dtype=np.int32)))
print(torch.BoolTensor(scores))
print(torch.DoubleTensor(features[:2]))

w = torch.zeros(2, 2, requires_grad=True)
loss = F.cross_entropy(x @ w, y)
loss.backward()
print(loss.item())
print(w.grad)

counts = torch.LongTensor(np.bincount(labels, minlength=2))
print(counts, counts.sum().item())
