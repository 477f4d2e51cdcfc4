# A Hermitian positive-definite matrix: its Cholesky factor (lower and upper), the
# eigenvalues with eigvalsh, and the error for a matrix that is not positive-definite.
import torch

A = torch.tensor([[4 + 0j, 1 + 2j], [1 - 2j, 6 + 0j]], dtype=torch.complex128)
L = torch.linalg.cholesky(A)
print(L)
U = torch.linalg.cholesky(A, upper=True)
print(U)
print(torch.allclose(L @ L.mH, A), torch.allclose(U.mH @ U, A))
L2, info = torch.linalg.cholesky_ex(A)
print(L2, info)
print(torch.linalg.eigvalsh(A))
print(torch.linalg.eigvalsh(A, UPLO="U"))

B = torch.tensor([[1 + 0j, 2j], [-2j, 1 + 0j]], dtype=torch.complex64)
print(torch.linalg.eigvalsh(B))
try:
    torch.linalg.cholesky(B)
except RuntimeError as e:
    print(e)

batch = torch.tensor(
    [[[2, 1j, 0], [-1j, 2, 1], [0, 1, 2]], [[3, 0, 1 - 1j], [0, 1, 0], [1 + 1j, 0, 3]]],
    dtype=torch.complex128,
)
print(torch.linalg.eigvalsh(batch))
Lb = torch.linalg.cholesky(batch)
print(Lb[1].diagonal().real, torch.trace(Lb[0]))
print(torch.allclose(Lb @ Lb.mH, batch))
