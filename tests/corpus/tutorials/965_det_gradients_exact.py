# The determinant and its gradient as a textbook checks them: det(A) and d det / dA = adj(A)^T.
import torch

# A 1 x 1 matrix: det is its entry, so the gradient is exactly the upstream gradient.
for v in [0.0, 0.1, 3.0, -2.5]:
    a = torch.tensor([[v]], dtype=torch.float64, requires_grad=True)
    (4 * torch.det(a)).backward()
    print(v, a.grad)
a = torch.tensor([[0.25]], requires_grad=True)
g, = torch.autograd.grad(torch.det(a), a, create_graph=True)
print(g, g.requires_grad)

# Small integer matrices in double precision: exact determinants and cofactors.
for rows in ([[2.0, 1.0], [1.0, 3.0]], [[4.0, 7.0], [2.0, 6.0]], [[1.0, 2.0, 0.0], [0.0, 1.0, 3.0], [2.0, 0.0, 1.0]]):
    A = torch.tensor(rows, dtype=torch.float64, requires_grad=True)
    d = torch.linalg.det(A)
    d.backward()
    print(d.item(), A.grad)

# Singular matrices: det is 0 and PyTorch's first-order gradient is a (signed) zero matrix.
for rows in ([[1.0, 2.0], [2.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]], [[3.0, 6.0], [1.0, 2.0]]):
    for dtype in (torch.float64, torch.float32):
        A = torch.tensor(rows, dtype=dtype, requires_grad=True)
        torch.det(A).backward()
        print(torch.det(A.detach()), A.grad)

# A batch of matrices, and det inside a larger expression.
B = torch.tensor([[[1.0, 2.0], [3.0, 4.0]], [[0.5, 0.0], [0.0, 8.0]]], dtype=torch.float64, requires_grad=True)
(torch.det(B) ** 2).sum().backward()
print(B.grad)
