# Data prepared with NumPy as tutorials do it, the dtypes named by strings: the arrays become
# tensors with torch.from_numpy (keeping the dtype) for a few steps of linear regression.
import numpy as np
import torch

inputs = np.array(
    [[73, 67, 43], [91, 88, 64], [87, 134, 58], [102, 43, 37], [69, 96, 70]], dtype="float32"
)
targets = np.array([[56, 70], [81, 101], [119, 133], [22, 37], [103, 119]], dtype="float32")
print(inputs.dtype, targets.dtype, inputs.shape)

X = torch.from_numpy(inputs)
Y = torch.from_numpy(targets)
print(X.dtype, Y.dtype)

w = torch.tensor([[0.1, -0.2, 0.3], [0.0, 0.2, -0.1]], requires_grad=True)
b = torch.zeros(2, requires_grad=True)
for epoch in range(5):
    preds = X @ w.t() + b
    diff = preds - Y
    loss = torch.sum(diff * diff) / diff.numel()
    loss.backward()
    with torch.no_grad():
        w -= w.grad * 1e-5
        b -= b.grad * 1e-5
        w.grad.zero_()
        b.grad.zero_()
    print(epoch, f"{loss.item():.4f}")

counts = np.array([3, 1, 2], dtype="int64")
mask = np.array([1, 0, 1], dtype="bool")
half = np.ones(2, dtype="float16")
scaled = np.arange(4).astype("float64") / 3
print(counts.dtype, mask, half.dtype, scaled)
print(torch.from_numpy(scaled), torch.from_numpy(counts).dtype)
print(np.zeros((2, 2), dtype="int32"), np.full(3, 0.5, dtype="float32"))
try:
    np.array([1, 2], dtype="float33")
except TypeError as e:
    print("TypeError:", e)
