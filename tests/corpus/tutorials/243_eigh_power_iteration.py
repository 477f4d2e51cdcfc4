# The largest eigenvalue of a symmetric matrix by power iteration, checked against
# torch.linalg.eigh, and the classic result that its gradient is v v^T.
import torch

X = torch.tensor([[2.0, -1.0, 0.0], [-1.0, 2.0, -1.0], [0.0, -1.0, 2.0]], dtype=torch.float64)

v = torch.ones(3, dtype=torch.float64)
for _ in range(50):
    v = X @ v
    v = v / torch.linalg.vector_norm(v)
print(v @ X @ v)

evals, evecs = torch.linalg.eigh(X)
print(evals)
print(torch.linalg.eigvalsh(X))
print(evecs[:, -1].abs())

S = X.clone().requires_grad_(True)
lam = torch.linalg.eigh(S).eigenvalues[-1]
lam.backward()
top = evecs[:, -1]
print(S.grad)
print(torch.allclose(S.grad, torch.outer(top, top)))

T = X.clone().requires_grad_(True)
torch.linalg.eigvalsh(T).sum().backward()
print(torch.allclose(T.grad, torch.eye(3, dtype=torch.float64)))   # the trace: the identity
