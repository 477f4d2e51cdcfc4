# Curvature of a loss that ignores some of its parameters: the Hessian has zero rows and
# columns for them, and eigh returns their eigenvectors as unit vectors (with the signs of
# zero that LAPACK's rotations give).
import torch
from torch.autograd.functional import hessian

torch.manual_seed(3)
M = torch.randint(-2, 3, (3, 3)).double()


def loss(p):
    used = p[:3]
    return 0.5 * used @ (M + M.T) @ used + used.sum()


p0 = torch.zeros(5, dtype=torch.float64)
H = hessian(loss, p0)
print(H)
evals, evecs = torch.linalg.eigh(H)
print(evals)
print(evecs)
print("flat directions:", (evals.abs() < 1e-12).sum().item())

# the same curvature in float32, and a second loss using only the first two of four inputs
H32 = H.float()
w, V = torch.linalg.eigh(H32)
print(w)
print(V)
Q = torch.tensor(
    [[2.0, -1.0, 0.0, 0.0], [-1.0, 3.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]
)
print(torch.linalg.eigh(Q))
