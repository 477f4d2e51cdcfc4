# Checking autograd against a hand-derived gradient with NumPy's norm, as notebooks do.
import numpy as np
import torch

torch.manual_seed(3)
X = torch.randn(6, 4, dtype=torch.float64)
y = torch.tensor([0, 2, 1, 1, 0, 2])
W = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)

loss = torch.nn.functional.cross_entropy(X @ W.T, y)
loss.backward()

P = torch.softmax(X @ W.T, dim=1).detach().numpy()
onehot = np.eye(3)[y.numpy()]
dW = (P - onehot).T @ X.numpy() / 6
print("difference:", np.linalg.norm(dW - W.grad.numpy()) < 1e-12)
print("gradient norm:", round(float(np.linalg.norm(W.grad.numpy())), 10))
print("row norms:", np.linalg.norm(dW, axis=1).round(8))
print("column 1-norms:", np.linalg.norm(dW, ord=1, axis=0, keepdims=True).round(8))
print("largest row sum:", np.linalg.norm(np.abs(dW), ord=np.inf).round(8))
print("Frobenius and nuclear:", np.linalg.norm(dW, "fro").round(8), np.linalg.norm(dW, "nuc").round(8))
print("spectral:", np.linalg.norm(dW, 2).round(8))
print("a list:", np.linalg.norm([3, 4]), "a number:", np.linalg.norm(-2.5))
print("float32 stays float32:", np.linalg.norm(np.ones(3, dtype=np.float32)).dtype)

from numpy.linalg import norm
print(norm(np.array([[1.0, 2.0], [3.0, 4.0]]), ord=-np.inf))

for bad in ({"ord": "abc"}, {"axis": 2}, {"ord": 3}):
    try:
        norm(dW, **bad)
    except ValueError as e:
        print(type(e).__name__, e)
try:
    norm(np.zeros(3), ord="fro")
except ValueError as e:
    print(type(e).__name__, e)
