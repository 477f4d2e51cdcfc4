# Saving memory with in-place activations, as older CNN code does: F's trailing-underscore
# functions and inplace=True modules change their input and return it, and autograd records
# the in-place kernels under their own names.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(3)
x = torch.randn(6, requires_grad=True)

checks = [
    ("elu_", lambda h: F.elu_(h, alpha=0.5)),
    ("selu_", lambda h: F.selu_(h)),
    ("celu_", lambda h: torch.celu_(h, alpha=2.0)),
    ("leaky_relu_", lambda h: F.leaky_relu_(h, 0.1)),
    ("hardtanh_", lambda h: F.hardtanh_(h, -0.5, 0.5)),
    ("threshold_", lambda h: F.threshold_(h, 0.2, -1.0)),
    ("rrelu_", lambda h: F.rrelu_(h, training=False)),
    ("relu inplace", lambda h: F.relu(h, inplace=True)),
]
for name, fn in checks:
    h = x * 2
    out = fn(h)
    print(name, out is h, h.grad_fn.name())
    print(h)
    (h * torch.arange(6.0)).sum().backward()
    print(x.grad)
    x.grad = None

torch.manual_seed(0)
h = x * 1
F.rrelu_(h, training=True)
print(h)

net = nn.Sequential(nn.Linear(6, 4), nn.LeakyReLU(0.05, inplace=True), nn.Linear(4, 1))
print(net)
out = net(x.unsqueeze(0))
print(out, out.grad_fn.name())
out.sum().backward()
print(net[0].bias.grad)

try:
    F.elu_(torch.ones(2, requires_grad=True))
except RuntimeError as e:
    print(e)
