# Second derivatives of GLU (a gradient penalty) and its forward-mode derivative.
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD

torch.manual_seed(1)
x = torch.randn(2, 8, requires_grad=True)
y = F.glu(x)
v = torch.randn(2, 4, requires_grad=True)
(gx,) = torch.autograd.grad(y, x, v, create_graph=True)
print(gx.grad_fn.name())
penalty = gx.pow(2).sum()
penalty.backward()
print(x.grad)
print(v.grad)

# Hessian-vector style: d/dx of <grad, u>
x2 = torch.randn(4, 6, requires_grad=True)
(g2,) = torch.autograd.grad(F.glu(x2, 1).sum(), x2, create_graph=True)
u = torch.randn(4, 6)
(hv,) = torch.autograd.grad(g2, x2, u)
print(hv)

# forward mode: the directional derivative of glu
p = torch.randn(3, 64)
t = torch.randn(3, 64)
with fwAD.dual_level():
    out = F.glu(fwAD.make_dual(p, t))
    tangent = fwAD.unpack_dual(out).tangent
print(tangent[:, :5])
print(tangent.sum().item())
