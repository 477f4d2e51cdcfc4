# einsum as a notation: bilinear forms, batched traces and attention-style contractions,
# with gradients flowing through every operand.
import torch

torch.manual_seed(0)
x = torch.randn(4, 3, requires_grad=True)   # a batch of 4 vectors
A = torch.randn(3, 3, requires_grad=True)
y = torch.randn(4, 3)

# x_b^T A y_b for each b, three ways
forms = torch.einsum('bi,ij,bj->b', x, A, y)
print(forms)
print(torch.allclose(forms, ((x @ A) * y).sum(dim=1)))
print(torch.einsum('bi,ij,bj', x, A, y).shape)  # implicit output: b appears 3 times, summed

forms.sum().backward()
print(A.grad)                       # sum_b x_b y_b^T
print(torch.allclose(A.grad, x.detach().T @ y))

# traces and diagonals of a batch of matrices
M = torch.arange(18.0).reshape(2, 3, 3)
print(torch.einsum('bii->b', M), torch.einsum('...ii->...i', M))

# outer products and the ellipsis
u = torch.tensor([1.0, 2.0])
print(torch.einsum('i,j->ij', u, torch.tensor([1.0, 0.0, -1.0])))
print(torch.einsum('...i,i->...', M, torch.ones(3)))
