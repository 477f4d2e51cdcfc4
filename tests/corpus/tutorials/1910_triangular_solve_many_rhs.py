# Solving triangular systems for several right-hand sides at once in double precision:
# forward and back substitution with torch.triangular_solve, and the newer
# torch.linalg.solve_triangular on a transposed (column-major) factor.
import warnings

import torch

warnings.filterwarnings("ignore", category=UserWarning)  # triangular_solve is deprecated
torch.manual_seed(21)

for n in (2, 3, 4, 5):
    R = torch.randn(n, n, dtype=torch.float64).triu() + 2 * torch.eye(n, dtype=torch.float64)
    B = torch.randn(n, 3, dtype=torch.float64)

    upper = torch.triangular_solve(B, R, upper=True).solution
    lower = torch.triangular_solve(B, R.t(), upper=False).solution
    print(f"n={n} back substitution:", upper.tolist())
    print(f"n={n} forward substitution:", lower.tolist())

    # the same lower system through linalg, the factor given as a transposed view
    again = torch.linalg.solve_triangular(R.mT, B, upper=False)
    print(f"n={n} linalg on R.mT:", again.tolist())
    print("residual", (R.t() @ lower - B).abs().max().item() < 1e-12)

# two right-hand sides with a unit diagonal
L = torch.tensor([[1.0, 0.0, 0.0], [0.3, 1.0, 0.0], [-0.7, 0.2, 1.0]], dtype=torch.float64)
rhs = torch.tensor([[1.0, 2.0], [0.5, -1.0], [0.25, 3.0]], dtype=torch.float64)
print(torch.triangular_solve(rhs, L, upper=False, unitriangular=True).solution.tolist())
