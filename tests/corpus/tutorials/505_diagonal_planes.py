# torch.diagonal / x.diagonal over any pair of dimensions, with offsets, and diag of a matrix
# above or below the main diagonal; the gradient flows back to the selected elements.
import torch
x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
print(x.diagonal(), torch.diagonal(x, 1, 1, 2), x.diagonal(-1, 0, 2))
m = torch.arange(12.0).reshape(3, 4)
print(m.diagonal(), m.diagonal(2), m.diagonal(-2), m.diagonal(5), torch.diag(m, 1), torch.diag(m, -1))
y = x.diagonal(0, 1, 2)
print(y.grad_fn.name())
y.sum().backward()
print(x.grad[0])
try:
    x.diagonal(0, 1, 1)
except RuntimeError as e:
    print(e)
