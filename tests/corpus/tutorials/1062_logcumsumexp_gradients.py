# Gradients of logcumsumexp: a running log-partition (as in CRF / HMM forward passes),
# weighted by a signed upstream gradient, its second derivative and forward-mode tangent.
import torch
import torch.autograd.forward_ad as fwAD

torch.manual_seed(2)
scores = torch.randn(3, 8, requires_grad=True)
running = torch.logcumsumexp(scores, dim=1)
weights = torch.randn(3, 8)
weights[0, 3] = 0.0
running.backward(weights)
print(scores.grad)

# along the first dimension, then a sum
x = torch.randn(5, 4, requires_grad=True)
torch.logcumsumexp(x, 0).sum().backward()
print(x.grad)

# create_graph: a gradient of the gradient
y = torch.randn(6, requires_grad=True)
v = torch.randn(6)
(gy,) = torch.autograd.grad(torch.logcumsumexp(y, 0), y, v, create_graph=True)
print(gy.grad_fn.name())
(hy,) = torch.autograd.grad(gy.sum(), y)
print(hy)

# forward mode
p = torch.randn(2, 7)
t = torch.randn(2, 7)
with fwAD.dual_level():
    out = torch.logcumsumexp(fwAD.make_dual(p, t), dim=-1)
    print(fwAD.unpack_dual(out).tangent)
