# Complex LU: factor once, solve many right-hand sides, and differentiate through it.
import torch

torch.manual_seed(1940)
A = torch.randn(4, 4, dtype=torch.complex128)
LU, pivots = torch.linalg.lu_factor(A)
print(pivots)
print(LU)

P, L, U = torch.linalg.lu(A)
print(torch.dist(P @ L @ U, A) < 1e-12)
print(U.diagonal())

b = torch.randn(4, 2, dtype=torch.complex128)
x = torch.linalg.lu_solve(LU, pivots, b)
print(x)
print(torch.linalg.lu_solve(LU, pivots, b, adjoint=True))
print(torch.linalg.lu_solve(LU, pivots, b.mT, left=False))

# the unpacked factors of lu_factor's result
P2, L2, U2 = torch.lu_unpack(LU, pivots)
print(torch.equal(P2, P), torch.equal(L2, L), torch.equal(U2, U))

# complex64, a batch, and a wide matrix
B = torch.randn(2, 3, 3, dtype=torch.complex64)
LU32, piv32, info = torch.linalg.lu_factor_ex(B)
print(LU32)
print(piv32, info)
W = torch.randn(2, 3, dtype=torch.complex128)
print(torch.linalg.lu(W).U)

# gradients through the factors (PyTorch's conjugate Wirtinger convention)
Z = torch.randn(3, 3, dtype=torch.complex128, requires_grad=True)
P, L, U = torch.linalg.lu(Z)
loss = (L.abs() ** 2).sum() + U.diagonal().real.sum() + U.imag.sum()
loss.backward()
print(Z.grad)

Z.grad = None
LUz, pz = torch.linalg.lu_factor(Z)
rhs = torch.ones(3, 1, dtype=torch.complex128, requires_grad=True)
sol = torch.linalg.lu_solve(LUz, pz, rhs)
(sol.abs() ** 2).sum().backward()
print(Z.grad)
print(rhs.grad)
print(sol.grad_fn.name(), LUz.grad_fn.name())

# a zero below a negative pivot is scaled to -0. and L keeps it (real and complex alike)
A = torch.tensor([[-2.0, 1.0], [0.0, 3.0]])
print(torch.linalg.lu(A).L)
print(torch.linalg.lu(A.to(torch.complex64) * 1j).L)
