import numpy as np
import torch

a = np.array([1.0, 2.0, 3.0])
print(a, a.dtype, type(a))
t = torch.from_numpy(a)
print(t, t.dtype)
t.add_(1)
print(a)
b = np.array([1, 2, 3], dtype=np.int32)
print(torch.tensor(b), torch.as_tensor(b), torch.from_numpy(b).dtype)
print(torch.tensor(np.array([[1, 2], [3, 4]])))
print(torch.tensor(np.array([True, False])))
x = torch.tensor(np.array([1., 2.]), requires_grad=True)
y = (x * x).sum()
y.backward()
print(x.grad)
print(np.zeros(3), np.ones((2, 2)), np.arange(4), np.arange(0.0, 1.0, 0.25), np.linspace(0, 1, 5))
print(np.exp(np.array([0.0, 1.0])), np.sqrt(2), np.sum(np.array([1, 2, 3])), np.mean([1, 2, 3, 4]))
print(np.dot(np.array([1.0, 2.0]), np.array([3.0, 4.0])))
print(np.matmul(np.eye(2), np.array([[1.0, 2.0], [3.0, 4.0]])))
w = torch.ones(3)
print(w + np.array([1.0, 2.0, 3.0]), w * np.float32(2.0) if False else "")
print(torch.tensor([1.0, 2.0]).numpy().dtype, np.array(torch.tensor([1, 2])))
print(isinstance(a, np.ndarray), type(a) == np.ndarray)
print(np.exp(torch.tensor([0.0, 1.0])))
print(torch.tensor(a).sum(), torch.tensor(a).sum().item())
print(torch.from_numpy(np.arange(6).reshape(2, 3)) if False else "")
print(a.sum(), a.mean(), a.shape, a.tolist())
try:
    torch.from_numpy([1.0])
except TypeError as e:
    print(e)
try:
    np.array(torch.ones(2, requires_grad=True))
except RuntimeError as e:
    print(e)
