import torch
import numpy as np

t = torch.ones(5)
print(f"t: {t}")
n = t.numpy()
print(f"n: {n}")

t.add_(1)
print(f"t: {t}")
print(f"n: {n}")

n = np.ones(5)
t = torch.from_numpy(n)
np.add(n, 1, out=n)
print(f"t: {t}")
print(f"n: {n}")

a = np.array([[1.5, 2.0], [3.0, 4.5]], dtype=np.float32)
b = torch.from_numpy(a)
a[0, 0] = -1.0
print(b)
print(b.dtype, a.dtype)
c = torch.tensor(a)
a[1, 1] = 100.0
print(c)
print(b)
