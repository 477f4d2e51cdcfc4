# NumPy functions called on tensors: ufuncs compute on the values and hand back a tensor
# (uint8 for a comparison), reductions call the tensor's own method with NumPy's keywords,
# which PyTorch refuses, and a tensor that requires grad cannot be read at all.
import numpy as np
import torch

t = torch.tensor([[0.25, -1.5], [2.0, 3.0]])
print(np.exp(t))
print(np.sqrt(np.abs(t)), np.square(t))
print(np.log1p(np.abs(t)), np.floor(t), np.sign(t))
print(np.isnan(t))
print(np.add(t, 1), np.multiply(t, np.float32(2)), np.maximum(t, 0))
print(np.divide(torch.tensor([1, 2]), 3))
print(np.matmul(t, t))
print(np.dot(t[0], t[1]), type(np.dot(t[0], t[1])).__name__)
print(np.argmax(t), np.argsort(t[1]), np.cumsum(t[0]))
print(np.round(t, 1), np.clip(t, 0.0, 1.0))
print(np.squeeze(t[None]).shape, np.transpose(t))
print(np.sort(t[1]), np.ravel(t))
print(np.concatenate([t[0], t[1]]), np.array([t[0], t[1]]).dtype)
print(np.mean([torch.tensor(1.0), torch.tensor(2.0)]))
print(np.allclose(t, t + 1e-9), np.linalg.norm(t))
print(np.where(t > 1.0))
print(np.float64(t.sum()), np.float32(t[0]))

calls = {
    "np.sum(t)": lambda: np.sum(t),
    "np.mean(t, axis=0)": lambda: np.mean(t, axis=0),
    "np.max(t)": lambda: np.max(t),
    "np.min(t, axis=1)": lambda: np.min(t, axis=1),
    "np.prod(t)": lambda: np.prod(t),
    "np.std(t)": lambda: np.std(t),
    "np.var(t, axis=0)": lambda: np.var(t, axis=0),
    "np.sum(t, dtype=np.float64)": lambda: np.sum(t, dtype=np.float64),
}
for text, f in calls.items():
    try:
        print(text, f())
    except TypeError as e:
        print(text, "TypeError:", e)

p = torch.tensor([0.5, 1.0], requires_grad=True)
for f in (lambda: np.exp(p), lambda: np.array(p), lambda: np.dot(p, p), lambda: np.argmax(p)):
    try:
        f()
    except RuntimeError as e:
        print(e)
print(np.squeeze(p))                        # t.squeeze() itself: still in the graph
print(np.sum(p.detach().numpy()), p.sum().item())
