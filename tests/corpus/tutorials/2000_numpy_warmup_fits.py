# Warm-up before autograd: fitting sin(x) by hand with plain NumPy arrays, then checking
# the hand-written gradients against torch's autograd on the same arrays.
import math

import numpy as np
import torch

x = np.linspace(-math.pi, math.pi, 2000)
y = np.sin(x)

np.random.seed(0)
a, b, c, d = np.random.randn(4)

lr = 1e-6
for step in range(300):
    y_pred = a + b * x + c * x**2 + d * x**3
    loss = np.square(y_pred - y).sum()
    if step % 60 == 59:
        print(step, f"{loss:.6f}")
    g = 2.0 * (y_pred - y)
    a -= lr * g.sum()
    b -= lr * (g * x).sum()
    c -= lr * (g * x**2).sum()
    d -= lr * (g * x**3).sum()
print(f"y = {a:.5f} + {b:.5f} x + {c:.5f} x^2 + {d:.5f} x^3")

# the same coefficients from the normal equations
X = np.stack([np.ones_like(x), x, x**2, x**3], axis=1)
coef = np.linalg.solve(X.T @ X, X.T.dot(y))
print(
    "least squares:",
    np.round(coef[1::2], 5),
    "even terms vanish:",
    bool(np.all(np.abs(coef[::2]) < 1e-9)),
)
print("cube matches x*x*x:", np.allclose(x**3, x * x * x))

# a tiny two-layer network on arrays, its gradient checked by torch
rng = np.random.RandomState(1)
inp = rng.randn(8, 5)
target = rng.randn(8, 2)
w1 = rng.randn(5, 4)
w2 = rng.randn(4, 2)
h = np.maximum(inp.dot(w1), 0)
out = h.dot(w2)
grad_out = 2.0 * (out - target)
grad_w2 = h.T.dot(grad_out)
grad_h = grad_out.dot(w2.T)
grad_h[h <= 0] = 0
grad_w1 = inp.T.dot(grad_h)

tw1 = torch.from_numpy(w1).requires_grad_()
tw2 = torch.from_numpy(w2).requires_grad_()
tloss = ((torch.from_numpy(inp).mm(tw1).clamp(min=0).mm(tw2) - torch.from_numpy(target)) ** 2).sum()
tloss.backward()
print("loss:", round(float(np.square(out - target).sum()), 6), round(tloss.item(), 6))
print("w1 grads agree:", np.allclose(tw1.grad.numpy(), grad_w1))
print("w2 grads agree:", np.allclose(tw2.grad.numpy(), grad_w2))
print(
    "softplus by hand:", np.round(np.log1p(np.exp(-np.abs(x[::400]))) + np.maximum(x[::400], 0), 4)
)
