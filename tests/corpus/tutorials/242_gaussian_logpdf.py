# The log density of a multivariate normal, written with a Cholesky factor (the way
# probabilistic-programming tutorials do), and its gradients with respect to the mean and the
# covariance.
import math
import torch

mu = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
S = torch.tensor([[2.0, 0.3, 0.1], [0.3, 1.0, 0.2], [0.1, 0.2, 1.5]], dtype=torch.float64,
                 requires_grad=True)
x = torch.tensor([1.0, 0.0, 1.0], dtype=torch.float64)

def logpdf(x, mu, S):
    L = torch.linalg.cholesky(S)
    diff = (x - mu).unsqueeze(-1)
    z = torch.linalg.solve(L, diff)
    maha = (z ** 2).sum()
    logdet = 2 * torch.log(torch.diag(L)).sum()
    return -0.5 * (maha + logdet + x.shape[0] * math.log(2 * math.pi))

lp = logpdf(x, mu, S)
print(lp)
sign, logabsdet = torch.linalg.slogdet(S)
print(sign, logabsdet)
print(torch.logdet(S))
lp.backward()
print(mu.grad)
print(S.grad)
inv = torch.linalg.inv(S.detach())
print(torch.allclose(mu.grad, inv @ (x - mu.detach())))
