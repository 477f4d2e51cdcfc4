# Rank-one updates and summed batch products: torch.addr (beta * M + alpha * outer(u, v))
# and torch.addbmm (beta * M + alpha * sum_i A[i] @ B[i]), their gradients, the method and
# in-place forms, a second-order pass and forward mode.
import torch
import torch.autograd.forward_ad as fwAD

torch.manual_seed(11)
u = torch.randn(5, requires_grad=True)
v = torch.randn(19, requires_grad=True)
M = torch.randn(5, 19, requires_grad=True)

C = torch.addr(M, u, v, beta=0.3, alpha=0.7)
print(C.grad_fn.name())
print(C[:, :4])
print(C.sum().item())
w = torch.linspace(-2, 2, 95).view(5, 19)
(C * w).sum().backward()
print(u.grad)
print(v.grad[:6].tolist())
print(M.grad[0, :5])

# the method form with alpha only, a broadcast bias row, and beta=0 (NaN in the input ignored)
u.grad = v.grad = None
row = torch.randn(19, requires_grad=True)
D = row.addr(u, v, alpha=-1.5)
D.backward(torch.ones_like(D) / 3)
print(row.grad[:5], u.grad)
E = torch.addr(torch.full((5, 19), float("nan")), u, v, beta=0)
print(torch.isnan(E).any().item())

# in place, on a buffer that does not require grad
buf = torch.zeros(5, 19)
buf.addr_(u.detach(), v.detach(), alpha=2.0)
print(buf[1, :4])

# second order: the gradient of u is a matrix-vector product, then times alpha
gu, gv = torch.autograd.grad(torch.addr(M, u, v, alpha=1.3).pow(2).sum(), (u, v), create_graph=True)
print(gu.grad_fn.name(), gv.grad_fn.name())
print(torch.autograd.grad(gu.sum(), v)[0][:5])

# addbmm: three (4 x 6) @ (6 x 3) products summed into one (4 x 3) result
A = torch.randn(3, 4, 6, requires_grad=True)
B = torch.randn(3, 6, 3, requires_grad=True)
bias = torch.randn(3, requires_grad=True)
out = torch.addbmm(bias, A, B, beta=0.5, alpha=0.25)
print(out.grad_fn.name())
out.backward(torch.arange(12.0).view(4, 3) / 7)
print(A.grad[2])
print(B.grad[0])
print(bias.grad)
(ga,) = torch.autograd.grad(bias.addbmm(A, B, alpha=3).sum(), A, create_graph=True)
print(ga.grad_fn.name())

# forward mode: beta * dM + alpha * outer(du, v) + alpha * outer(u, dv)
with fwAD.dual_level():
    o = torch.addr(
        fwAD.make_dual(M.detach(), torch.randn(5, 19)),
        fwAD.make_dual(u.detach(), torch.randn(5)),
        fwAD.make_dual(v.detach(), torch.randn(19)),
        beta=0.3,
        alpha=0.7,
    )
    print(fwAD.unpack_dual(o).tangent[:, -4:])
    p = torch.addbmm(
        bias.detach(), fwAD.make_dual(A.detach(), torch.randn(3, 4, 6)), B.detach(), alpha=0.25
    )
    print(fwAD.unpack_dual(p).tangent)
