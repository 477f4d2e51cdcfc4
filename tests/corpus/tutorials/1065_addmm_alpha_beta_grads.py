# Scaled matrix products: torch.addmm / addmv / baddbmm with alpha and beta, as in a
# hand-written linear layer "out = beta * bias + alpha * (x @ W)", then the gradients.
import torch
import torch.autograd.forward_ad as fwAD

torch.manual_seed(7)
x = torch.randn(6, 4, requires_grad=True)
W = torch.randn(4, 3, requires_grad=True)
bias = torch.randn(6, 3, requires_grad=True)

out = torch.addmm(bias, x, W, beta=0.5, alpha=0.3)
loss = (out * torch.linspace(-1, 1, 18).view(6, 3)).sum()
loss.backward()
print(out.grad_fn.name())
print(x.grad)
print(W.grad)
print(bias.grad)
print(x.grad[0].tolist(), W.grad[0].tolist())

# the method form and a second-order pass
x.grad = None
y = bias.addmm(x, W, alpha=3.0)
gx, gW = torch.autograd.grad(y.sum(), (x, W), create_graph=True)
print(gx.grad_fn.name(), gW.grad_fn.name())
print(torch.autograd.grad((gx * x).sum(), W)[0])

# matrix @ vector and a batch of products
v = torch.randn(4, requires_grad=True)
z = torch.addmv(torch.zeros(6), x, v, alpha=-1.5)
z.backward(torch.arange(6.0))
print(v.grad)
b1 = torch.randn(2, 6, 4, requires_grad=True)
q = torch.baddbmm(torch.ones(2, 6, 3), b1, W.detach().expand(2, 4, 3), alpha=0.7, beta=2)
q.backward(torch.randn(2, 6, 3))
print(b1.grad[1])

# forward mode: the tangent of alpha * (x @ W)
with fwAD.dual_level():
    xd = fwAD.make_dual(x.detach(), torch.randn(6, 4))
    Wd = fwAD.make_dual(W.detach(), torch.randn(4, 3))
    o = torch.addmm(bias.detach(), xd, Wd, alpha=0.25)
    print(fwAD.unpack_dual(o).tangent)
