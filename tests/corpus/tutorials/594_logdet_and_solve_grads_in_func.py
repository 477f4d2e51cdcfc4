# A Gaussian log-likelihood's pieces differentiated by torch.func and by backward(): the
# gradients of log|det| and of a linear solve, printed to 12 digits.
import torch
from torch.func import grad, vmap

torch.set_printoptions(precision=12)
torch.manual_seed(23)
cov = torch.randn(3, 3, dtype=torch.float64)
cov = cov @ cov.T + 3 * torch.eye(3, dtype=torch.float64)
resid = torch.randn(3, dtype=torch.float64)


def logabsdet(c):
    return torch.linalg.slogdet(c)[1]


def quad(c):
    return resid @ torch.linalg.solve(c, resid)


print("slogdet, func:    ", grad(logabsdet)(cov)[0])
leaf = cov.clone().requires_grad_()
logabsdet(leaf).backward()
print("slogdet, backward:", leaf.grad[0])
print("solve, func:      ", grad(quad)(cov)[1])
leaf.grad = None
quad(leaf).backward()
print("solve, backward:  ", leaf.grad[1])
print(vmap(grad(logabsdet))(torch.stack([cov, 2 * cov]))[1, 2])
