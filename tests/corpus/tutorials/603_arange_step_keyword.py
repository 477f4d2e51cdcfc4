# Sampling a curve on a grid made with arange's keyword step, then fitting its slope by
# autograd: the grid's length decides the loss, so the step must be honoured.
import math

import torch

xs = torch.arange(-math.pi, math.pi, step=0.25)
print(xs.shape, xs[:4])
grid = torch.arange(1, end=3, step=0.5)
print(grid)
print(torch.arange(0.0, 1.0, step=0.125, dtype=torch.float64))
print(torch.arange(2, end=6))

w = torch.tensor(0.5, requires_grad=True)
target = torch.sin(xs)
for step in range(3):
    pred = torch.tanh(w * xs)
    loss = ((pred - target) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.3 * w.grad
    w.grad.zero_()
    print(f"step {step}: loss {loss.item():.6f}, w {w.item():.6f}")

for call in (
    lambda: torch.arange(5, step=2),
    lambda: torch.arange(end=4, step=2),
    lambda: torch.arange(step=2),
):
    try:
        call()
    except TypeError as e:
        print("TypeError:", str(e).splitlines()[0])
