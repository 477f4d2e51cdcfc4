# Build Q from LAPACK's compact QR (geqrf) with householder_product / orgqr, compare it with
# linalg.qr, and differentiate through the reflections.
import torch

torch.manual_seed(21)
A = torch.randn(5, 3, dtype=torch.float64)
a, tau = torch.geqrf(A)
Q = torch.linalg.householder_product(a, tau)
print(Q)
print(Q.stride(), Q.is_contiguous())
print(torch.allclose(Q, torch.linalg.qr(A).Q))
print(torch.allclose(Q.T @ Q, torch.eye(3, dtype=torch.float64)))
print(torch.allclose(torch.orgqr(a, tau), Q))

a.requires_grad_()
tau.requires_grad_()
Q = torch.linalg.householder_product(a, tau)
print(Q.grad_fn.name())
(Q * torch.arange(15.0, dtype=torch.float64).reshape(5, 3)).sum().backward()
print(a.grad)
print(tau.grad)

batch = torch.randn(2, 4, 2)
ab, taub = torch.geqrf(batch)
Qb = torch.linalg.householder_product(ab, taub)
print(Qb.shape, Qb.stride())
print(torch.allclose(Qb.mT @ Qb, torch.eye(2).expand(2, 2, 2), atol=1e-6))

try:
    torch.linalg.householder_product(torch.randn(2, 3), torch.randn(2))
except RuntimeError as e:
    print(e)
