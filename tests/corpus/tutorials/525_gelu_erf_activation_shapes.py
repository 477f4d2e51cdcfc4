# Comparing smooth activations: GELU is x * Phi(x), and Phi can be written with erf, so the
# two should agree. We also look at the slope GELU gives back to each input.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.linspace(-3, 3, 13, requires_grad=True)

y = F.gelu(x)
y.sum().backward()
print("gelu:", y)
print("gelu slope:", x.grad)

with torch.no_grad():
    phi = 0.5 * (1 + torch.erf(x / math.sqrt(2)))
    print("Phi via erf:", phi)
    print("x * Phi:", x * phi)
    print("largest gap:", (x * phi - y).abs().max().item())
    print("tail probabilities:", 0.5 * torch.erfc(x / math.sqrt(2)))

h = torch.randn(4, 8)
print("hidden after gelu:")
print(F.gelu(h))
print(torch.erf(h).sum(dim=1))
