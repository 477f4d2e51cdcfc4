# Least squares three ways: the normal equations with torch.linalg.solve, the pseudo-inverse,
# and a Cholesky factor; then the gradient of the fit's residual with respect to the data.
import torch

X = torch.tensor([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 3.0]], dtype=torch.float64)
y = torch.tensor([1.0, 2.9, 5.1, 7.0], dtype=torch.float64, requires_grad=True)

XtX = X.T @ X
w = torch.linalg.solve(XtX, X.T @ y)
print(w)
print(torch.linalg.pinv(X) @ y.detach())

L = torch.linalg.cholesky(XtX)
z = torch.linalg.solve(L, X.T @ y.detach())
print(torch.linalg.solve(L.T, z))

residual = ((X @ w - y) ** 2).sum()
print(residual)
residual.backward()
print(y.grad)          # -2 r: at the least-squares fit, X^T r = 0

W = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
b = torch.tensor([1.0, 2.0])
sol = torch.linalg.solve(W, b)
sol.sum().backward()
print(sol, W.grad)
