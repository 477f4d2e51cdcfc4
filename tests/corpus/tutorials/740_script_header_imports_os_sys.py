# A training script as people keep them in a repository: `import os` and `import sys` sit at
# the top out of habit (for paths and arguments the script no longer uses); the rest fits
# y = 3x - 1 with plain gradient descent.
import os
import sys

import torch

torch.manual_seed(7)

xs = torch.linspace(-1, 1, 16).unsqueeze(1)
ys = 3 * xs - 1 + 0.05 * torch.randn(16, 1)

w = torch.zeros(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)

for step in range(30):
    pred = xs * w + b
    loss = ((pred - ys) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.3 * w.grad
        b -= 0.3 * b.grad
    w.grad.zero_()
    b.grad.zero_()
    if step % 10 == 9:
        print(f"step {step + 1}: loss {loss.item():.6f}")

print("w =", w.item(), "b =", b.item())
print(w, b)
