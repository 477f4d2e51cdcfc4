# Factoring a symmetric indefinite matrix (a saddle-point / KKT system) with
# torch.linalg.ldl_factor, then solving with the factors; Bunch-Kaufman pivots shown.
import torch

H = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], dtype=torch.float64)
A = torch.tensor([[1.0, 1.0, 1.0]], dtype=torch.float64)
K = torch.cat([torch.cat([H, A.T], dim=1), torch.cat([A, torch.zeros(1, 1, dtype=torch.float64)], dim=1)])
print(K)

LD, pivots = torch.linalg.ldl_factor(K)
print(LD)
print(pivots)

rhs = torch.tensor([[1.0], [2.0], [3.0], [1.0]], dtype=torch.float64)
sol = torch.linalg.ldl_solve(LD, pivots, rhs)
print(sol)
print(torch.allclose(K @ sol, rhs))

# a matrix needing a 2x2 pivot block, in float32
S = torch.tensor([[0.0, 2.0, 1.0], [2.0, 0.0, 3.0], [1.0, 3.0, 1.0]])
LDs, ps, info = torch.linalg.ldl_factor_ex(S)
print(LDs, ps, info, sep="\n")
print(torch.linalg.ldl_solve(LDs, ps, torch.eye(3)))

# a batch, and a singular matrix's info
batch = torch.stack([K, 2 * K + torch.eye(4, dtype=torch.float64)])
print(torch.linalg.ldl_factor(batch).pivots)
print(torch.linalg.ldl_factor_ex(torch.zeros(2, 2)).info)

W = torch.eye(3, requires_grad=True)
LDw, pw = torch.linalg.ldl_factor(W * 2)
try:
    LDw.sum().backward()
except RuntimeError as e:
    print(e)
