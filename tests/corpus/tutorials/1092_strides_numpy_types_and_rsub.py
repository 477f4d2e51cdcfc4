# Memory layout as the tutorials on strides show it (a tensor's .stride() beside its NumPy
# array's .strides in bytes, an empty tensor made with chosen strides), NumPy's scalar types
# compared by identity, and torch.rsub with alpha.
import numpy as np
import torch

x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
for name, t in [("x", x), ("x.t()", x.t()), ("x[:, ::2]", x[:, ::2])]:
    a = t.numpy()
    print(f"{name:10s} stride={t.stride()} numpy strides={a.strides} itemsize={a.itemsize}")
print(np.zeros((2, 5)).strides, np.arange(6).nbytes)

col_major = torch.empty_strided((2, 3), (1, 2))
col_major.copy_(torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
print(col_major.stride(), col_major.is_contiguous(), col_major.numpy().strides)
print(col_major, col_major.contiguous().stride())

n = np.int64(3)
f = np.float32(2.5)
print(type(n) is np.int64, type(f) is np.float32, type(n) is np.int32)
print(isinstance(n, np.int64), isinstance(3, np.int64), isinstance(np.float64(1.0), float))
print(type(np.arange(4).sum()) is np.int64, type(np.ones(3).mean()), type(n).__name__)

w = torch.tensor([0.5, -1.25, 2.0], requires_grad=True)
target = torch.tensor([1.0, 1.0, 1.0])
r = torch.rsub(w, target, alpha=0.3)
print(r, r.grad_fn.name())
r.pow(2).sum().backward()
print(w.grad)
print(torch.rsub(torch.tensor([0.1, 0.7, 2.3]), 1.3, alpha=1.1))
