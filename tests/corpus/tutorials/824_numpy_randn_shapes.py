# NumPy's legacy rand/randn take the dimensions one by one; a shape tuple is an error in
# NumPy's words (normal and uniform take size= instead). The arrays then feed torch.
import numpy as np
import torch

np.random.seed(7)
for bad in [(3, 2)], [[3, 2]], [2.5]:
    try:
        np.random.randn(*bad)
    except TypeError as e:
        print("randn:", e)
try:
    np.random.rand(True)
except TypeError as e:
    print("rand:", e)

a = np.random.randn(3, 2) * 0.1
b = np.random.normal(size=(3, 2))
w = torch.tensor(a.T @ a + np.eye(2), requires_grad=True)
x = torch.from_numpy(b)
loss = (x @ w).pow(2).sum()
loss.backward()
print(w.grad)
print(np.random.rand(np.int64(2)))
