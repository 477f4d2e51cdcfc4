# Factor a matrix once with LU and reuse it for several right-hand sides, then
# differentiate a loss through the factorization and the solves.
import torch

torch.manual_seed(7)
A = torch.randn(4, 4) + 4 * torch.eye(4)
A.requires_grad_()

LU, pivots = torch.linalg.lu_factor(A)
print("pivots:", pivots)
print("LU strides:", LU.stride(), "contiguous:", LU.is_contiguous())
print(LU.grad_fn.name())

rhs = [torch.randn(4, 1) for _ in range(3)]
xs = [torch.linalg.lu_solve(LU, pivots, b) for b in rhs]
for b, x in zip(rhs, xs):
    residual = (A @ x - b).abs().max().item()
    print(f"residual {residual < 1e-5}")

loss = sum((x**2).sum() for x in xs)
loss.backward()
print("loss:", round(loss.item(), 4))
print("A.grad:\n", A.grad)

# the same derivative from torch.linalg.solve
B = torch.cat(rhs, dim=1)
A2 = A.detach().clone().requires_grad_()
torch.linalg.solve(A2, B).pow(2).sum().backward()
print(torch.allclose(A.grad, A2.grad, atol=1e-5))

# the left=False and adjoint forms
LU, pivots = torch.linalg.lu_factor(A.detach())
C = torch.randn(2, 4)
X = torch.linalg.lu_solve(LU, pivots, C, left=False)
print(X.stride(), torch.allclose(X @ A.detach(), C, atol=1e-5))
Y = torch.linalg.lu_solve(LU, pivots, B, adjoint=True)
print(torch.allclose(A.detach().T @ Y, B, atol=1e-5))

# double precision: the gradient agrees with finite differences
D = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
c = torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
f = lambda a, b: torch.linalg.lu_solve(*torch.linalg.lu_factor(a), b)
print(torch.autograd.gradcheck(f, (D, c)))
