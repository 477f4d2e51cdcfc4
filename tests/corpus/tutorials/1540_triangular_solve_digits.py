# Solving triangular systems: back substitution with torch.linalg.solve_triangular,
# checked against the residual, and a Gaussian log-likelihood through a Cholesky factor.
import torch

torch.manual_seed(0)
torch.set_printoptions(precision=8)

A = torch.randn(4, 4).triu() + 3 * torch.eye(4)
B = torch.randn(4, 3)
X = torch.linalg.solve_triangular(A, B, upper=True)
print(X)
print("residual:", (A @ X - B).abs().max().item())

# one right-hand side, lower triangular, unit diagonal
L = torch.randn(6, 6).tril() + 2 * torch.eye(6)
b = torch.randn(6, 1)
print(torch.linalg.solve_triangular(L, b, upper=False))
print(torch.linalg.solve_triangular(L, b, upper=False, unitriangular=True))

# a batch of upper systems with several right-hand sides
U = torch.randn(5, 7, 7).triu() + 4 * torch.eye(7)
Y = torch.randn(5, 7, 2)
Z = torch.linalg.solve_triangular(U, Y, upper=True)
print(Z[0])
print(Z.sum(dim=(1, 2)))

# the Mahalanobis term of a multivariate normal's log-density
cov = torch.tensor([[2.0, 0.3, 0.1], [0.3, 1.5, -0.2], [0.1, -0.2, 1.0]])
chol = torch.linalg.cholesky(cov)
x = torch.randn(10, 3)
w = torch.linalg.solve_triangular(chol, x.T, upper=False)
print(w.T)
print((w ** 2).sum(0))
dist = torch.distributions.MultivariateNormal(torch.zeros(3), scale_tril=chol)
print(dist.log_prob(x))

# solving from the right: X U = C
C = torch.randn(3, 7)
print(torch.linalg.solve_triangular(U[1], C, upper=True, left=False))
