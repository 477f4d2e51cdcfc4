# Inverse, determinant and linear solves in single precision, printed with all their digits:
# a 3 x 3 system from a linear-algebra course, a rotation-scaling 2 x 2, and a small batch.
import torch

torch.set_printoptions(precision=8)

A = torch.tensor([[2.0, 1.0, -1.0], [-3.0, -1.0, 2.0], [-2.0, 1.0, 2.0]])
b = torch.tensor([8.0, -11.0, -3.0])
print("det(A) =", torch.linalg.det(A).item())
print("A^-1 =", torch.linalg.inv(A))
x = torch.linalg.solve(A, b)
print("x =", x)
print("A @ x - b =", A @ x - b)

theta = torch.tensor(0.3)
R = torch.stack([torch.stack([torch.cos(theta), -torch.sin(theta)]),
                 torch.stack([torch.sin(theta), torch.cos(theta)])]) * 1.5
print("inverse of a scaled rotation:", torch.inverse(R))
print("det:", R.det())

torch.manual_seed(0)
M = torch.randn(4, 5, 5) + 2 * torch.eye(5)
print("dets:", torch.linalg.det(M))
print("logabsdet:", torch.linalg.slogdet(M).logabsdet)
rhs = torch.randn(4, 5, 2)
print("solutions:", torch.linalg.solve(M, rhs)[0])
print("inverse[1]:", torch.linalg.inv(M)[1])

K = torch.randn(8, 8)
K = K @ K.T + 8 * torch.eye(8)
y = torch.randn(8)
alpha = torch.linalg.solve(K, y)
print("kernel ridge weights:", alpha)
