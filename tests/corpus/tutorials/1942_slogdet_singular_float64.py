# Checking invertibility with slogdet in double precision: a singular matrix has sign 0 and
# log|det| -inf (the sign of that zero follows the signs of the other pivots and the row
# exchanges, as the LU factorisation meets them).
import torch

mats = {
    "rank one": torch.outer(torch.tensor([1.0, -2.0, 3.0]), torch.tensor([2.0, 1.0, -1.0])),
    "zero column": torch.tensor([[0.0, 1.0], [0.0, 5.0]]),
    "zero last column": torch.tensor([[2.0, 1.0, 0.0], [-1.0, 3.0, 0.0], [4.0, 1.0, 0.0]]),
    "zero row": torch.tensor([[1.0, 2.0], [0.0, 0.0]]),
    "invertible": torch.tensor([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]]),
}
for name, m in mats.items():
    A = m.double()
    sign, logabsdet = torch.linalg.slogdet(A)
    det = torch.linalg.det(A)
    print(f"{name:>16}: sign={sign.item()}, logabsdet={logabsdet.item():.6f}, det={det.item()}")

torch.manual_seed(0)
B = torch.randn(4, 5, 5, dtype=torch.float64)
B[1, :, 3] = 0.0  # one singular matrix in the batch
print(torch.linalg.slogdet(B))
print(torch.linalg.det(B))
