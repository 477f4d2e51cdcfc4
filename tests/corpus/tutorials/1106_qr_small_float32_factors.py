# Factor a few small matrices with Householder QR in single precision and look at every
# digit: the factors, how well they rebuild the matrix, and gradients flowing through Q and R.
import torch

torch.set_printoptions(precision=8)

M = torch.tensor([[3.0, 1.0, -2.0], [4.0, -7.0, 5.0], [0.5, 2.0, 9.0]])
Q, R = torch.linalg.qr(M)
print("Q =", Q)
print("R =", R)
print("rebuilt error:", (Q @ R - M).abs().max().item())
print("Q^T Q - I:", (Q.T @ Q - torch.eye(3)).abs().max().item())

# a tall design matrix: solve least squares through R
X = torch.stack([torch.ones(5), torch.arange(5.0), torch.arange(5.0) ** 2], dim=1)
y = torch.tensor([1.0, 2.5, 2.0, 4.5, 7.0])
Qx, Rx = torch.linalg.qr(X)
coef = torch.linalg.solve_triangular(Rx, (Qx.T @ y).unsqueeze(1), upper=True)
print("coefficients:", coef.squeeze(1))
print("complete Q:", torch.linalg.qr(X, mode="complete").Q)
print("R only:", torch.linalg.qr(X, mode="r").R)

# a wide matrix and a batch
W = torch.tensor([[1.0, -2.0, 0.25, 3.0], [2.0, 1.0, -1.5, 0.5]])
print(torch.linalg.qr(W))
B = torch.arange(12.0).reshape(2, 3, 2) / 7 - 0.6
Qb, Rb = torch.linalg.qr(B)
print(Qb, Rb, sep="\n")

# gradients through both factors
A = M.clone().requires_grad_(True)
Qa, Ra = torch.linalg.qr(A)
loss = (Qa[:, 0] * torch.tensor([1.0, -1.0, 2.0])).sum() + Ra.diagonal().abs().sum()
loss.backward()
print("loss:", loss.item())
print("grad:", A.grad)
