# Data for a float32 model drawn directly in float32 with NumPy's Generator (its own float32
# stream, not float64 draws rounded), as newer NumPy tutorials recommend.
import numpy as np
import torch

rng = np.random.default_rng(2024)
x = rng.standard_normal((4, 3), dtype=np.float32)
noise = rng.random(4, dtype=np.float32) * 0.1
print(x.dtype, noise.dtype)
print(x)
w_true = np.array([1.5, -2.0, 0.5], dtype=np.float32)
y = x @ w_true + noise
print(y.dtype, np.round(y, 4))

labels = rng.integers(0, 3, size=6, dtype=np.int32)
flags = rng.integers(0, 2, size=4, dtype=bool)
print(labels, labels.dtype, flags)

grid = np.arange(12).reshape(3, 4)
print(rng.permuted(grid, axis=1))
print(rng.permuted(np.arange(6)))
print(rng.bytes(4).hex())

X = torch.from_numpy(x)
w = torch.zeros(3, requires_grad=True)
loss = ((X @ w - torch.from_numpy(y)) ** 2).mean()
loss.backward()
print(X.dtype, round(loss.item(), 4), w.grad.shape)

try:
    rng.random(2, dtype=np.int32)
except TypeError as e:
    print("TypeError:", e)
