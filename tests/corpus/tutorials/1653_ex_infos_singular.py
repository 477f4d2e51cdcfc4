# The _ex functions report LAPACK's info instead of raising; the plain ones raise.
import torch

S = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
print(torch.linalg.inv_ex(S))
print(torch.linalg.solve_ex(S, torch.tensor([1.0, 1.0])))
print(torch.linalg.lu_factor_ex(S))
print(torch.linalg.cholesky_ex(S))
print(torch.linalg.cholesky_ex(-torch.eye(3)).info)

batch = torch.stack([torch.eye(2), torch.zeros(2, 2)])
print(torch.linalg.inv_ex(batch).info)
print(torch.linalg.lu_factor_ex(batch).info)

for fn in (torch.linalg.lu_factor, torch.linalg.inv):
    try:
        fn(S)
    except RuntimeError as e:
        print(type(e).__name__, e)

try:
    torch.linalg.lu_factor(batch)
except RuntimeError as e:
    print(e)

try:
    torch.linalg.lu_factor_ex(S, check_errors=True)
except RuntimeError as e:
    print(e)

LU, piv, info = torch.linalg.lu_factor_ex(torch.ones(3, 3))
print(LU, piv, info)
print(torch.linalg.lu_solve(LU, piv, torch.ones(3, 1)))

try:
    torch.linalg.lu_solve(LU, piv.long(), torch.ones(3, 1))
except RuntimeError as e:
    print(e)
