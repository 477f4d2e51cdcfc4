# Old answers use torch.triangular_solve(b, A); compare it with
# torch.linalg.solve_triangular and check the gradients.
import warnings

import torch

warnings.filterwarnings("ignore", category=UserWarning)  # the deprecation notices

torch.manual_seed(11)
A = torch.randn(3, 3).triu() + 3 * torch.eye(3)
A.requires_grad_()
b = torch.randn(3, 2, requires_grad=True)

sol, coef = torch.triangular_solve(b, A)
print(sol)
print(coef.grad_fn.name(), sol.grad_fn.name())
print(sol.stride(), coef.stride())
print(torch.allclose(sol, torch.linalg.solve_triangular(A, b, upper=True)))

(sol.sum() + coef.sum()).backward()
print(A.grad)
print(b.grad)

A.grad = None
b.grad = None
x = torch.triangular_solve(b, A, upper=True, transpose=True).solution
(x**2).mean().backward()
print(x)
print(A.grad)

low = torch.tensor([[2.0, 0.0], [1.0, 4.0]])
rhs = torch.tensor([[2.0], [9.0]])
print(torch.triangular_solve(rhs, low, upper=False))
print(torch.triangular_solve(rhs, low, upper=False, unitriangular=True).solution)
