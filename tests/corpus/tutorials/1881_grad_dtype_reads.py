# Checking which dtype a parameter's gradient will have before mixing precisions.
import torch

weights = torch.linspace(-1.0, 1.0, 5, requires_grad=True)
scale = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
counts = torch.arange(3)
print("weights:", weights.grad_dtype, "scale:", scale.grad_dtype, "counts:", counts.grad_dtype)

hidden = weights * scale
try:
    print(hidden.grad_dtype)
except RuntimeError as err:
    print("hidden:", err)
try:
    hidden.grad_dtype = torch.float64
except RuntimeError as err:
    print("hidden =", err)
try:
    weights.grad_dtype = "float16"
except RuntimeError as err:
    print("weights =", err)

# restating the tensor's own dtype changes nothing
weights.grad_dtype = torch.float32
loss = (hidden**2).sum()
loss.backward()
print(weights.grad.dtype == weights.grad_dtype, weights.grad)
print(scale.grad.dtype, scale.grad.item())
