# Complex matrices with torch.linalg: inverse, determinant and solving a system,
# then the gradient of a real loss (PyTorch's conjugate Wirtinger convention).
import torch

A = torch.tensor([[1 + 1j, 2], [3, 4 - 1j]], dtype=torch.complex128)
b = torch.tensor([1 + 0j, 2j], dtype=torch.complex128)

Ainv = torch.linalg.inv(A)
print(Ainv)
print(torch.inverse(A))
print(torch.linalg.det(A), torch.det(A))
x = torch.linalg.solve(A, b)
print(x)
print(torch.dist(A @ x, b) < 1e-12)
print(torch.linalg.solve(A, torch.eye(2, dtype=torch.complex128), left=False))

# a batch of complex64 matrices
B = torch.tensor([[[2, 1j], [-1j, 3]], [[1, 1], [0, 1j]]], dtype=torch.complex64)
print(torch.linalg.det(B))
print(torch.linalg.inv(B))

# singular: PyTorch's error words
S = torch.tensor([[1 + 1j, 2 + 2j], [1, 2]], dtype=torch.complex128)
try:
    torch.linalg.inv(S)
except RuntimeError as e:
    print(e)
try:
    torch.linalg.solve(A, torch.ones(2))
except RuntimeError as e:
    print(e)

# gradients
A.requires_grad_(True)
b.requires_grad_(True)
loss = torch.linalg.solve(A, b).abs().sum() + torch.linalg.det(A).abs()
loss.backward()
print(A.grad)
print(b.grad)

z = torch.tensor([3 + 4j, -1j, 0j], requires_grad=True)
s = torch.sgn(z)
print(s)
(s * torch.tensor([1 + 2j, 2 - 1j, 3j])).real.sum().backward()
print(z.grad)
