# Norms and singular values of a complex matrix (torch.linalg docs style), and the
# gradient of a norm with respect to the complex entries.
import torch

A = torch.tensor([[1 + 1j, 2, 0.5], [3, 4 - 1j, 1j]], dtype=torch.complex128, requires_grad=True)

print(torch.linalg.matrix_norm(A))
print(torch.linalg.matrix_norm(A, ord=1), torch.linalg.matrix_norm(A, ord=float("inf")))
print(torch.linalg.matrix_norm(A, ord="nuc"), torch.linalg.matrix_norm(A, ord=2))
print(torch.linalg.norm(A), torch.linalg.vector_norm(A, ord=1))
print(torch.linalg.svdvals(A))
print(torch.dist(A, torch.zeros(2, 3, dtype=torch.complex128)))

loss = torch.linalg.matrix_norm(A, "nuc") + torch.linalg.matrix_norm(A, 1)
loss.backward()
print(A.grad)

A.grad = None
torch.linalg.svdvals(A.mT).sum().backward()
print(A.grad)

B = torch.tensor([[[2, 1j], [-1j, 2]], [[0, 1], [1, 0]]], dtype=torch.complex64)
print(torch.linalg.matrix_norm(B, keepdim=True))
print(torch.linalg.svdvals(B))
