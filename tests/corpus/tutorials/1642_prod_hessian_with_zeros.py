# Second derivatives of a product of factors, as in a likelihood that multiplies per-sample
# terms: torch.func.hessian (forward mode over reverse mode) when some factors are exactly zero.
import torch
from torch.func import hessian, jacfwd, jacrev


def likelihood(p):
    return torch.prod(p)


for p in (
    torch.tensor([0.5, 2.0, -1.5]),
    torch.tensor([0.0, 3.0, -4.0]),
    torch.tensor([2.0, 0.0, -0.5]),
    torch.tensor([0.0, -1.0, 0.0]),
):
    print("p =", p)
    print(hessian(likelihood)(p))
    print(jacfwd(jacrev(likelihood))(p))
    print(jacrev(jacrev(likelihood))(p))

# along one dim of a matrix, in double precision
m = torch.tensor([[1.5, 0.0, -2.0], [0.5, -3.0, 4.0]], dtype=torch.float64)
H = hessian(lambda a: a.prod(dim=1).sum())(m)
print(H[0])
print(H[1, 1])
J = jacfwd(lambda a: torch.cumprod(a, dim=1))(m)
print(J[0])
print(J.sum(), J.is_contiguous())
