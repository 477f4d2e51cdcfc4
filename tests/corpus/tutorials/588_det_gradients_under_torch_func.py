# Gradients of a determinant taken with torch.func instead of backward(): first order they
# agree to the printed digits; at the identity (every singular value equal) the second
# derivatives come out as NaN through torch.func and through svdvals, as PyTorch computes them.
import torch
from torch.func import grad, hessian, jacrev, vmap

torch.manual_seed(7)
M = torch.randn(3, 3, dtype=torch.float64)
print("func.grad:", grad(torch.linalg.det)(M))
leaf = M.clone().requires_grad_()
torch.linalg.det(leaf).backward()
print("backward: ", leaf.grad)

batch = torch.randn(2, 2, 2)
print(vmap(grad(torch.det))(batch))

eye = torch.eye(2)
print("jacrev(jacrev(det)) at I:", jacrev(jacrev(torch.det))(eye)[0, 0])
print("hessian(det) at I:", hessian(torch.det)(eye)[1, 1])


def spread(A):
    return torch.linalg.svdvals(A).sum()


print(torch.autograd.functional.hessian(spread, torch.eye(2, dtype=torch.float64))[0, 1])
