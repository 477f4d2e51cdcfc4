# The complex examples of torch.linalg's documentation, the way its Example blocks run them:
# a decomposition, then a check that it reconstructs the matrix.
import torch

A = torch.tensor(
    [[0.9828 + 0.3889j, -0.4617 + 0.3010j], [0.1662 - 0.7435j, -0.6139 + 0.0562j]],
    dtype=torch.complex128,
)

# eigen-decomposition of a general complex matrix
L, V = torch.linalg.eig(A)
print(L)
print(V)
print(torch.allclose(V @ torch.diag(L) @ torch.linalg.inv(V), A))
print(torch.linalg.eigvals(A))
print(torch.linalg.eig(A.to(torch.complex64)).eigenvalues)

# Hermitian matrices: real eigenvalues, eigenvectors with LAPACK's phases
H = A @ A.mH + torch.eye(2)
w, Q = torch.linalg.eigh(H)
print(w)
print(Q)
print(torch.allclose(Q @ torch.diag(w).to(H.dtype) @ Q.mH, H))
print(torch.linalg.eigh(H, UPLO="U").eigenvectors)
print(torch.linalg.eigvalsh(H))

# QR and the reflectors geqrf keeps
B = torch.tensor([[1 + 2j, 3 - 1j], [0.5j, 2 + 0j], [1 - 1j, -1 + 0.5j]], dtype=torch.complex128)
Qr, R = torch.linalg.qr(B)
print(Qr)
print(R)
print(torch.allclose(Qr @ R, B), Qr.shape, torch.linalg.qr(B, mode="complete").Q.shape)
h, tau = torch.geqrf(B)
print(tau)
print(torch.allclose(torch.linalg.householder_product(h, tau), Qr))

# singular values, pseudo-inverse, least squares
U, S, Vh = torch.linalg.svd(B, full_matrices=False)
print(S)
print(torch.allclose(U @ torch.diag(S).to(B.dtype) @ Vh, B), U.shape, Vh.shape)
print(torch.linalg.svd(B).U.shape)
P = torch.linalg.pinv(B)
print(P)
print(torch.allclose(B @ P @ B, B))
rhs = torch.tensor([[1 + 0j], [2 - 1j], [0.5j]], dtype=torch.complex128)
sol = torch.linalg.lstsq(B, rhs)
print(sol.solution, sol.rank)
print(torch.linalg.lstsq(B, rhs, driver="gelsd").singular_values)

# exponential, determinant sign and log, Cholesky solves
print(torch.linalg.matrix_exp(A))
print(torch.linalg.matrix_exp(torch.tensor([[0, 1j], [1j, 0]])))
sign, logabsdet = torch.linalg.slogdet(A)
print(sign, logabsdet)
print(torch.allclose(sign * torch.exp(logabsdet), torch.linalg.det(A)), torch.logdet(H))
C = torch.linalg.cholesky(H)
X = torch.cholesky_solve(rhs[:2], C)
print(X)
print(torch.allclose(H @ X, rhs[:2]))
print(torch.cholesky_solve(rhs[:2], C.mH, upper=True))
