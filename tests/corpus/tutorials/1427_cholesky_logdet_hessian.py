# Second derivatives of a Gaussian log-determinant computed through a Cholesky factor, the way
# Gaussian-process code writes it: log det K = 2 * sum(log(diag(L))). torch.func.hessian runs
# forward mode over reverse mode, so the Cholesky factor's forward rule is used too.
import torch

torch.manual_seed(0)
A = torch.randn(3, 3, dtype=torch.float64)
K = A @ A.T + 0.5 * torch.eye(3, dtype=torch.float64)


def logdet_chol(m):
    return 2 * torch.linalg.cholesky(m).diagonal().log().sum()


def logdet_upper(m):
    return 2 * torch.linalg.cholesky(m, upper=True).diagonal().log().sum()


print(logdet_chol(K), torch.logdet(K))
H = torch.func.hessian(logdet_chol)(K)
print(H[0, 0])
print(H[1, 2])
print(torch.func.hessian(logdet_upper)(K)[2, 0])
J = torch.func.jacfwd(torch.linalg.cholesky)(K)
print(J[2, 1])
