# Machine epsilon from NumPy in a PyTorch script: a numerically safe log-loss that clamps its
# probabilities to [eps, 1 - eps] with np.finfo(np.float32).eps, a weight-norm eps taken as
# float(np.finfo(...).eps), and the limits printed as NumPy prints them.
import numpy as np
import torch

torch.manual_seed(0)
EPS = np.finfo(np.float32).eps
print(EPS, type(EPS).__name__, float(EPS))
print(np.finfo(np.float32))
print(repr(np.finfo(np.float64)), np.finfo(float).tiny)

w = torch.randn(3, requires_grad=True)
x = torch.randn(8, 3)
y = (x[:, 0] > 0).float()
for step in range(3):
    p = torch.sigmoid(x @ w * 20.0).clamp(min=EPS, max=1 - EPS)
    loss = -(y * torch.log(p) + (1 - y) * torch.log(1 - p)).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        w.grad.zero_()
    print(step, round(loss.item(), 5))

eps = float(np.finfo(np.float32).eps)
v = torch.tensor([3.0, 4.0], requires_grad=True)
n = v / (v.norm() + eps)
n.sum().backward()
print(n, v.grad)
print(np.finfo(np.float16).max, np.finfo(np.float32).bits, np.finfo(np.float64).precision)
try:
    np.finfo(np.int64)
except ValueError as e:
    print("ValueError:", e)
