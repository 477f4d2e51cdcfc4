import torch

S = torch.tensor([[4.0, 2.0], [2.0, 3.0]], dtype=torch.float64)
L = torch.linalg.cholesky(S)
print(L)
print(L @ L.T)

evals, evecs = torch.linalg.eigh(S)
print(evals)
print(evecs.abs())

A = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=torch.float64)
Q, R = torch.linalg.qr(A)
print(torch.allclose(Q @ R, A))
print(R.abs())

U, Sv, Vh = torch.linalg.svd(A, full_matrices=False)
print(Sv)
print(torch.dist(U @ torch.diag(Sv) @ Vh, A) < 1e-10)
print(torch.linalg.pinv(A))

X = S.clone().requires_grad_(True)
torch.linalg.eigh(X)[0].sum().backward()
print(torch.allclose(X.grad, torch.eye(2, dtype=torch.float64)))
print(torch.linalg.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0])))
