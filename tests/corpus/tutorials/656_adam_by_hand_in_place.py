# Adam written by hand with in-place tensor methods, beside torch.optim.Adam, and an
# exponential moving average of the weights with lerp_.
import math

import torch

torch.manual_seed(0)
x = torch.randn(32, 3)
y = x @ torch.tensor([[1.5], [-2.0], [0.5]]) + 0.1 * torch.randn(32, 1)

w_mine = torch.zeros(3, 1, requires_grad=True)
w_ref = torch.zeros(3, 1, requires_grad=True)
ref = torch.optim.Adam([w_ref], lr=0.05)

m = torch.zeros_like(w_mine)
v = torch.zeros_like(w_mine)
b1, b2, lr, eps = 0.9, 0.999, 0.05, 1e-8
ema = torch.zeros_like(w_mine)

for step in range(1, 51):
    for w in (w_mine, w_ref):
        loss = ((x @ w - y) ** 2).mean()
        loss.backward()
    with torch.no_grad():
        g = w_mine.grad
        m.mul_(b1).add_(g, alpha=1 - b1)
        v.mul_(b2).addcmul_(g, g, value=1 - b2)
        denom = (v.sqrt() / math.sqrt(1 - b2**step)).add_(eps)
        w_mine.addcdiv_(m, denom, value=-lr / (1 - b1**step))
        ema.lerp_(w_mine, 0.1)
    ref.step()
    ref.zero_grad()
    w_mine.grad = None
    if step % 10 == 0:
        print(step, f"{loss.item():.6f}", torch.allclose(w_mine, w_ref, atol=1e-6))

print(w_mine.detach().flatten())
print(ema.flatten())
print((w_mine - w_ref).abs().max().item() < 1e-6)

# in place on a tensor of the graph: recorded as the out-of-place operation
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 1.0
b.addcmul_(a, a, value=0.5)
print(b.grad_fn.name())
b.lerp_(torch.zeros(3), 0.25)
print(b)
b.sum().backward()
print(a.grad)

# the triangular and cumulative ones
t = torch.arange(1.0, 10.0).reshape(3, 3)
print(t.clone().tril_(), t.clone().triu_(1), t.clone().cumsum_(1), sep="\n")
print(t.clone().clip_(2, 6))
mask = torch.tensor([True, False, True])
print(mask.logical_not_(), torch.tensor([1.0, -2.0]).gt_(0))
