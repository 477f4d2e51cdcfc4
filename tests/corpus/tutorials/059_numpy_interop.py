import numpy as np
import torch

a = np.array([1.0, 2.0, 3.0])
t = torch.from_numpy(a)
print(t)

x = torch.tensor(a, dtype=torch.float32, requires_grad=True)
y = (x ** 2).sum()
y.backward()
print(x.grad)
print(x.grad.numpy())
print(x.detach().numpy() * 2)

try:
    x.numpy()
except RuntimeError as e:
    print(e)

m = torch.arange(6).reshape(2, 3)
print(m.numpy())
print(np.array(m.tolist()).sum())
