# The Jacobian of a small network's output with respect to its input, three ways:
# torch.autograd.functional.jacobian (reverse and forward mode) and torch.func.jacrev.
import torch
import torch.nn as nn
from torch.autograd.functional import jacobian
from torch.func import jacrev, jacfwd

torch.manual_seed(1)
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
x = torch.randn(3)

J = jacobian(net, x)
print(J)
print(J.shape, J.requires_grad)

J_fwd = jacobian(net, x, vectorize=True, strategy="forward-mode")
print((J - J_fwd).abs().max() < 1e-6)

J_rev = jacrev(net)(x)
print(J_rev)
print(jacfwd(net)(x).shape)

# a batch of inputs: the Jacobian of every output row with respect to every input row
X = torch.randn(2, 3)
JB = jacobian(net, X)
print(JB.shape)
print(JB[0, :, 1, :])  # rows of different samples do not interact
