import torch

A = torch.tensor([[4.0, 1.0], [2.0, 3.0]], requires_grad=True)
print(torch.linalg.det(A))
print(torch.det(A), A.det())
sign, logabsdet = torch.linalg.slogdet(A)
print(sign, logabsdet)
print(torch.logdet(A))

torch.linalg.det(A).backward()
print(A.grad)  # det(A) * inv(A)^T

Ainv = torch.linalg.inv(A)
print(Ainv)
print(torch.allclose(torch.inverse(A.detach()) @ A.detach(), torch.eye(2)))

b = torch.tensor([1.0, 2.0])
x = torch.linalg.solve(A, b)
print(x)
A.grad = None
x.sum().backward()
print(A.grad)

try:
    torch.linalg.inv(torch.tensor([[1.0, 2.0], [2.0, 4.0]]))
except RuntimeError as e:
    print(e)
