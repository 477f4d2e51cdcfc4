# Inverting a Hermitian positive-definite matrix from its Cholesky factor, for complex
# matrices: torch.cholesky_inverse with the lower and the upper factor.
import torch

H = torch.tensor(
    [[4.0, 1 + 1j, 0.5j], [1 - 1j, 3.0, 0.25], [-0.5j, 0.25, 2.0]], dtype=torch.complex128
)
L = torch.linalg.cholesky(H)
H_inv = torch.cholesky_inverse(L)
print(H_inv)
print(torch.allclose(H_inv @ H, torch.eye(3, dtype=torch.complex128)))
print(torch.cholesky_inverse(L.mH, upper=True))
print(H_inv.diagonal().imag)  # exactly real on the diagonal

g = torch.Generator().manual_seed(5)
for n in (2, 4):
    B = torch.randn(n, n, dtype=torch.cfloat, generator=g)
    P = B @ B.mH + n * torch.eye(n, dtype=torch.cfloat)
    print(torch.cholesky_inverse(torch.linalg.cholesky(P)))

# the gradient reaches the factor (PyTorch's formula: -(X (G + G^H) X) L)
factor = L.clone().requires_grad_()
weights = torch.tensor([[1.0, 2j, 0], [0.5, -1.0, 1j], [0, 1, 1]], dtype=torch.complex128)
(torch.cholesky_inverse(factor) * weights).real.sum().backward()
print(factor.grad.real.round(decimals=6) + 0.0)
print(factor.grad.imag.round(decimals=6) + 0.0)  # (+ 0.0: no signed zeros)
