# Noisy targets drawn around a curve with NumPy (one draw per point), converted with the NumPy
# scalar types, then fitted with torch.
import numpy as np
import torch

np.random.seed(7)
xs = np.linspace(0.0, 2.0, 8)
clean = 1.5 * xs - 0.5
noisy = np.random.normal(clean, 0.1)  # loc is an array: one noise draw per point
print(noisy.shape, noisy.dtype)
print(np.round(noisy, 4))

lo = np.random.uniform([0.0, 10.0], [1.0, 20.0])  # arrays of bounds
print(lo)
rng = np.random.default_rng(3)
print(rng.normal(np.array([[0.0], [100.0]]), [1.0, 2.0, 3.0]).round(3))

x = torch.from_numpy(np.float32(xs.reshape(-1, 1)))
y = torch.from_numpy(np.float32(noisy).reshape(-1, 1))
print(x.dtype, y.dtype, repr(np.int64(np.array([1.7, -2.2]))))
print(repr(np.float64(torch.tensor([0.5, 0.25]))), repr(np.float32([1, 2])))

w = torch.zeros(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w, b], lr=0.1)
for _ in range(200):
    opt.zero_grad()
    loss = ((x * w + b - y) ** 2).mean()
    loss.backward()
    opt.step()
print(f"w={w.item():.4f} b={b.item():.4f} loss={loss.item():.6f}")
