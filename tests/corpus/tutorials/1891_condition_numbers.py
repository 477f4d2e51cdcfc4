# How well-conditioned is a matrix? torch.linalg.cond for real and complex matrices
import torch

A = torch.tensor([[4.0, 1.0], [2.0, 3.0]], dtype=torch.float64, requires_grad=True)
Z = torch.tensor([[2 + 1j, 1 - 1j], [0.5j, 3]], dtype=torch.complex128, requires_grad=True)

for M in (A, Z):
    for p in (None, -2, "nuc", "fro", 1, float("inf")):
        c = torch.linalg.cond(M, p)
        print(p, round(c.item(), 6), c.grad_fn.name())

# the 2-norm and nuclear-norm condition numbers are differentiable
(g,) = torch.autograd.grad(torch.linalg.cond(Z), Z)
print(g)
(g,) = torch.autograd.grad(torch.linalg.cond(A, "nuc"), A)
print(g)

# the others go through an inverse that PyTorch fills in place for singular matrices
c = torch.linalg.cond(A, "fro")
try:
    c.backward()
except RuntimeError as e:
    print("backward failed:", str(e).split(":")[0])

# singular matrices: infinite (or nan) condition numbers, also in batches
S = torch.zeros(2, 2, 2, dtype=torch.complex64)
S[0] = torch.eye(2)
print(torch.linalg.cond(S, 1), torch.linalg.cond(S, "nuc"), torch.linalg.cond(S))
