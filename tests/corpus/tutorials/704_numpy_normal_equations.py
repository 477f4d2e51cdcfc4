# Closed-form least squares with numpy.linalg, checked against a torch gradient-descent fit.
import numpy as np
import torch

np.random.seed(11)
X = np.column_stack((np.ones(30), np.random.uniform(-1, 1, size=(30, 2))))
true_w = np.array([0.5, -2.0, 1.25])
y = X @ true_w + 0.05 * np.random.normal(size=30)

w_inv = np.linalg.inv(X.T @ X) @ X.T @ y
w_solve = np.linalg.solve(X.T @ X, X.T @ y)
w_lstsq, residuals, rank, sv = np.linalg.lstsq(X, y, rcond=None)
print(np.round(w_inv, 6), np.allclose(w_inv, w_solve), rank)
print(np.round(residuals, 6), np.round(sv, 4))
svd = np.linalg.svd(X, full_matrices=False)
print(type(svd).__name__, np.round(svd.S, 4), np.round(svd.Vh[0], 4))
eig = np.linalg.eigh(X.T @ X)
print(np.round(eig.eigenvalues, 4), round(float(np.linalg.det(X.T @ X)), 3))
print(np.linalg.slogdet(np.eye(2) * 3.0))
try:
    np.linalg.inv(np.ones((3, 3)))
except np.linalg.LinAlgError as e:
    print(type(e).__name__, e, isinstance(e, ValueError))

Xt = torch.tensor(X, dtype=torch.float64)
yt = torch.tensor(y)
w = torch.zeros(3, dtype=torch.float64, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.5)
for _ in range(300):
    opt.zero_grad()
    loss = ((Xt @ w - yt) ** 2).mean()
    loss.backward()
    opt.step()
print(np.round(w.detach().numpy(), 6), np.allclose(w.detach().numpy(), w_lstsq, atol=1e-6))
