import torch

torch.manual_seed(0)

# linalg.inv, solve and cholesky hand back LAPACK's column-major matrices
A = torch.randn(3, 3, dtype=torch.float64)
A_inv = torch.linalg.inv(A)
print(A_inv.stride(), A_inv.is_contiguous())
print(A_inv.t().is_contiguous())

# so flattening with view fails, while reshape copies
try:
    flat = A_inv.view(-1)
except RuntimeError as e:
    print("view failed:", e)
flat = A_inv.reshape(-1)
print(flat.shape, flat.is_contiguous())
print(torch.allclose(A @ A_inv, torch.eye(3, dtype=torch.float64)))

# elementwise results and clones keep the layout; contiguous() makes a row-major copy
scaled = 2 * A_inv
print(scaled.stride(), A_inv.clone().stride(), A_inv.contiguous().stride())

# a batch: each matrix column-major, one after the other
batch = torch.randn(2, 3, 3, dtype=torch.float64)
print(torch.linalg.inv(batch).stride())

B = torch.randn(3, 2, dtype=torch.float64)
X = torch.linalg.solve(A, B)
print(X.stride(), torch.allclose(A @ X, B))
print(torch.linalg.solve(A, B.t(), left=False).stride())

S = A @ A.t() + 3 * torch.eye(3, dtype=torch.float64)
L = torch.linalg.cholesky(S)
U = torch.linalg.cholesky(S, upper=True)
print(L.stride(), U.stride(), torch.allclose(L @ L.t(), S), torch.allclose(U.t() @ U, S))
print(torch.cholesky_inverse(L).stride())

# gradients come back row-major like the leaf they belong to
W = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
torch.linalg.inv(W).sum().backward()
print(W.grad.stride(), W.grad.is_contiguous())
