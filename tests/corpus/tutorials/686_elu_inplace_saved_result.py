# A critic with ELU/SELU/CELU activations applied in place, its input gradient and a
# second derivative: PyTorch's in-place kernels differentiate from the result they keep,
# and changing that result before backward is an error.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
torch.manual_seed(4)
net = nn.Sequential(
    nn.Linear(3, 5),
    nn.ELU(inplace=True),
    nn.Linear(5, 4),
    nn.CELU(0.6, inplace=True),
    nn.Linear(4, 1),
)
x = torch.randn(6, 3, requires_grad=True)
(gx,) = torch.autograd.grad(net(x).sum(), x, create_graph=True)
print(gx)
penalty = ((gx.norm(dim=1) - 1) ** 2).mean()
penalty.backward()
print(net[0].weight.grad)
print(net[2].bias.grad)

v = torch.linspace(-2, 1, 5, requires_grad=True)
for name, fn in (
    ("elu_", lambda t: F.elu(t, 0.4, inplace=True)),
    ("selu_", F.selu_),
    ("celu_", lambda t: F.celu(t, 0.7, inplace=True)),
):
    (g,) = torch.autograd.grad(fn(v * 1.0).sum(), v, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), v)
    print(name, " ".join(f"{a:.15e}" for a in g.tolist()))
    print(name, " ".join(f"{a:.15e}" for a in h.tolist()))

y = F.elu(v * 1.0, inplace=True)
y.add_(1)
try:
    y.sum().backward()
except RuntimeError as e:
    print(str(e).split(". Hint")[0])
