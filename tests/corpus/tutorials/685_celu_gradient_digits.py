# CELU's gradient checked digit by digit in float64, as a research utility that compares
# autograd against a hand-written derivative would print it: PyTorch's derivative rounds
# alpha to float32 before dividing by it.
import torch
import torch.nn as nn

x = torch.tensor([0.9, -0.25, -1.3, -2.2], dtype=torch.float64, requires_grad=True)
act = nn.CELU(alpha=0.7)
y = act(x)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
(h,) = torch.autograd.grad(g.sum(), x)
for name, t in (("value", y), ("grad", g), ("second", h)):
    print(name, " ".join(f"{v:.16e}" for v in t.tolist()))
hand = torch.where(x > 0, torch.ones_like(x), torch.exp(x / 0.7))
print("max |autograd - hand|:", f"{(g - hand).abs().max().item():.3e}")

z = torch.linspace(-2, 1, 7, requires_grad=True)
nn.CELU(alpha=0.3)(z).pow(2).sum().backward()
print(z.grad)
