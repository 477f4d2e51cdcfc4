# Adding a small jitter to the diagonal of a batch of covariance matrices in place, through
# Tensor.diagonal(dim1=-2, dim2=-1): the diagonal is a view, so the change reaches the batch.
import torch

torch.manual_seed(2)
A = torch.randn(2, 3, 3, dtype=torch.float64, requires_grad=True)
K = A * A.transpose(-1, -2) + 2.0
K.diagonal(dim1=-2, dim2=-1).add_(1e-2)
print(K.diagonal(dim1=-2, dim2=-1))
loss = K.diagonal(dim1=-2, dim2=-1).log().sum() + K.sum()
loss.backward()
print(loss)
print(A.grad)

# the diagonal of a strided matrix (every other column) is a view too
M = torch.zeros(4, 8)
M[:, ::2].diagonal().fill_(1.0)
M[:, 1::2].diagonal(-1).fill_(2.0)
print(M)
d = M.t().diagonal(1)
print(d, d.stride(), d._is_view())

# gradient through diagonals taken along other dimensions
x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
parts = [x.diagonal(0, 1, 2), x.diagonal(1, 2, 0), torch.diagonal(x, -1, -1, -2)]
for p in parts:
    print(p.shape, p.stride())
sum(p.sum() * (i + 1) for i, p in enumerate(parts)).backward()
print(x.grad)
