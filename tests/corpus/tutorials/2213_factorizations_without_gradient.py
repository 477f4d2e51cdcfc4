# Which LAPACK-style factorizations are differentiable: the LDL^T factor and its solve, and
# geqrf's compact QR, keep the graph but have no derivative; the node's name and the error's
# class tell them apart from an ordinary failure.
import torch

S = torch.tensor([[4.0, 1.0, 0.5], [1.0, -3.0, 0.2], [0.5, 0.2, 2.0]], dtype=torch.float64,
                 requires_grad=True)
LD, pivots = torch.linalg.ldl_factor(S)
print(LD.grad_fn.name(), pivots)
rhs = torch.tensor([[1.0], [0.0], [2.0]], dtype=torch.float64, requires_grad=True)
x = torch.linalg.ldl_solve(LD.detach(), pivots, rhs)
print(x.grad_fn.name(), x.squeeze())

for name, t in (("ldl_factor", LD), ("ldl_solve", x)):
    try:
        t.sum().backward()
    except RuntimeError as err:
        print(name, type(err).__name__, "|", err)

qr_packed, tau = torch.geqrf(S)
print(qr_packed.grad_fn.name())
try:
    torch.autograd.grad(qr_packed.diagonal().sum(), S)
except NotImplementedError as err:
    print("geqrf", type(err).__name__, "|", err)

# the differentiable routes: linalg.solve and linalg.qr
sol = torch.linalg.solve(S, rhs)
q, r = torch.linalg.qr(S)
(sol.sum() + r.diagonal().abs().sum()).backward()
print(S.grad)
print(rhs.grad.squeeze())
