# Forward mode through the old torch.triangular_solve: PyTorch's tangent formula reads the
# tangent of A as it is given (the part below the triangle and, with unitriangular=True, the
# diagonal too), unlike torch.linalg.solve_triangular, whose tangent only sees the triangle.
import warnings

import torch
from torch.func import jacfwd, jacrev, jvp

warnings.filterwarnings("ignore", category=UserWarning)

torch.manual_seed(3)
A = torch.randn(3, 3, dtype=torch.float64) + 4 * torch.eye(3, dtype=torch.float64)
B = torch.randn(3, 2, dtype=torch.float64)
dA = torch.randn(3, 3, dtype=torch.float64)
dB = torch.randn(3, 2, dtype=torch.float64)


def old(a, b, upper=True, transpose=False, unit=False):
    return torch.triangular_solve(b, a, upper=upper, transpose=transpose, unitriangular=unit)[0]


for upper in (True, False):
    for transpose in (False, True):
        for unit in (False, True):
            f = lambda a, b: old(a, b, upper, transpose, unit)
            x, dx = jvp(f, (A, B), (dA, dB))
            print(upper, transpose, unit, dx[0])

# the new function agrees with the derivative
g = lambda a, b: torch.linalg.solve_triangular(a, b, upper=True, unitriangular=True)
print(jvp(g, (A, B), (dA, dB))[1])
print(jvp(lambda a: old(a, B, unit=True), (A,), (dA,))[1])

# reverse mode differentiates only what is read: jacrev and jacfwd disagree for the old one
h = lambda a: old(a, B, upper=False, transpose=True).sum()
print(jacrev(h)(A))
print(jacfwd(h)(A))

# only the right-hand side moving: both agree
print(jvp(lambda b: old(A, b, transpose=True), (B,), (dB,))[1])
print(jvp(lambda b: torch.linalg.solve_triangular(A.T, b, upper=False), (B,), (dB,))[1])
