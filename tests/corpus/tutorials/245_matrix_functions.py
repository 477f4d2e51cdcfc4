# Small matrix identities that tutorials check numerically: det and its gradient (Jacobi's
# formula), matrix powers, multi_dot, Kronecker products and cross products.
import torch

A = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
d = torch.det(A)
print(d)
d.backward()
print(A.grad)                                # det(A) * inv(A)^T
print(torch.det(A.detach()) * torch.inverse(A.detach()).T)

print(torch.linalg.matrix_power(A, 3))
print(torch.linalg.matrix_power(A.detach(), -1))
print(torch.linalg.matrix_power(A.detach(), 0))
B = torch.tensor([[1.0, 0.0], [0.0, 2.0]])
print(torch.linalg.multi_dot([A, B, A]))
print(torch.kron(B, torch.ones(2, 2)))

a = torch.tensor([1.0, 0.0, 0.0], requires_grad=True)
b = torch.tensor([0.0, 1.0, 0.0])
c = torch.linalg.cross(a, b)
print(c)
c.sum().backward()
print(a.grad)
print(torch.trace(A), torch.linalg.matrix_norm(A.detach(), 'nuc'))
print(torch.linalg.svdvals(A.detach()))
