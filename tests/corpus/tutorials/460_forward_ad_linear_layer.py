import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)
x = torch.randn(4, 3)
W = torch.randn(2, 3)
b = torch.randn(2)

# directional derivative of a linear layer with respect to its input
v = torch.ones(4, 3)
with fwAD.dual_level():
    dual_x = fwAD.make_dual(x, v)
    out = F.linear(dual_x, W, b)
    y, jvp = fwAD.unpack_dual(out)
print(y)
print(jvp)
print(torch.allclose(jvp, v @ W.T))

# the same through an nn.Module with a tanh after it
layer = nn.Linear(3, 2)
with torch.no_grad():
    layer.weight.copy_(W)
    layer.bias.copy_(b)
with fwAD.dual_level():
    dual_x = fwAD.make_dual(x, v)
    out = torch.tanh(layer(dual_x))
    jvp2 = fwAD.unpack_dual(out).tangent
print(jvp2.detach())
print((1 - torch.tanh(x @ W.T + b) ** 2) * (v @ W.T))
