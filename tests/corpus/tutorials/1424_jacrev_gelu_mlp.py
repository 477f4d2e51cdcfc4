# The Jacobian of a small GELU network with torch.func.jacrev, next to the elementwise
# derivative of GELU itself, printed to 8 decimals.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_printoptions(precision=8)
net = nn.Sequential(nn.Linear(4, 3), nn.GELU(), nn.Linear(3, 2))
x = torch.randn(4)
print(torch.func.jacrev(net)(x))

z = torch.randn(12) * 3
d = torch.func.jacrev(F.gelu)(z).diagonal()
print(d)
zz = z.clone().requires_grad_()
F.gelu(zz).sum().backward()
print(zz.grad)
print((d - zz.grad).abs().max() < 1e-6)
