# Differentiating the spectrum of a real, non-symmetric matrix (a rotation-like system)
import torch

torch.manual_seed(0)
A = torch.tensor([[0.9, -0.4, 0.1], [0.4, 0.9, 0.0], [0.05, 0.2, 0.5]], dtype=torch.float64,
                 requires_grad=True)
lam = torch.linalg.eigvals(A)
print(lam)
print(lam.grad_fn.name())

# spectral radius: how fast the system grows; its gradient with respect to the entries
radius = lam.abs().max()
radius.backward()
print(round(radius.item(), 8))
print(A.grad)

# a batch of 2 x 2 systems, penalising oscillation (imaginary parts)
B = torch.tensor([[[0.0, 1.0], [-2.0, -0.5]], [[1.0, 2.0], [0.5, 3.0]]], dtype=torch.float64,
                 requires_grad=True)
w = torch.linalg.eigvals(B)
print(w)
(w.imag ** 2 + 0.1 * w.real ** 2).sum().backward()
print(B.grad)

# the sum of the eigenvalues is the trace: its gradient is the identity
C = torch.randn(4, 4, dtype=torch.float64, requires_grad=True)
(g,) = torch.autograd.grad(torch.linalg.eigvals(C).real.sum(), C)
print(torch.allclose(g, torch.eye(4, dtype=torch.float64)))
