# QR of medium-sized float32 matrices: Gram-Schmidt in a textbook vs torch.linalg.qr, and
# a regression solved through R.
import torch

torch.manual_seed(7)
torch.set_printoptions(precision=7, linewidth=120)

A = torch.randn(8, 8)
Q, R = torch.linalg.qr(A)
print("diag(R):", R.diagonal())
print("Q[:, :3]:", Q[:, :3])
print("max |Q^T Q - I|:", (Q.T @ Q - torch.eye(8)).abs().max() < 1e-5)

# polynomial features for 25 samples, degree 5
t = torch.linspace(-1, 1, 25)
X = torch.stack([t**p for p in range(6)], dim=1)
y = torch.sin(3 * t) + 0.1 * torch.randn(25)
Qx, Rx = torch.linalg.qr(X)
print("R of the design:", Rx)
coef = torch.linalg.solve_triangular(Rx, Qx.T @ y.unsqueeze(1), upper=True)
print("fitted coefficients:", coef.squeeze().round(decimals=3))

# a square 24 x 24 and a tall 60 x 30 matrix: only R's diagonal and a corner of Q
B = torch.randn(24, 24)
print("|diag R| of B:", torch.linalg.qr(B).R.diagonal().abs()[:6])
C = torch.randn(60, 30) / 3
Qc, Rc = torch.linalg.qr(C)
print(Qc[:2, :5])
print(Rc[:3, :5])
print("mode='r' agrees:", torch.equal(torch.linalg.qr(C, mode="r").R, Rc))
