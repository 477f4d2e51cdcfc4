# Gradients through sparse matrix products, as the torch.sparse docs show them: a sparse COO
# leaf gets a sparse gradient at its nonzero places from torch.sparse.mm / addmm / to_dense,
# a dense one from torch.mm; a CSR matrix reduces each row's products with 'sum', 'mean',
# 'amax' or 'amin', and the gradient reaches the dense matrix.
import warnings

import torch

warnings.simplefilter("ignore")  # (PyTorch's beta-state notice about CSR tensors)

a = torch.tensor([[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]]).to_sparse().requires_grad_()
print(a)
print(a.requires_grad, a.is_leaf, a.grad)
b = torch.tensor([[0.0, 1.0], [2.0, 0.0], [0.0, 0.0]], requires_grad=True)
y = torch.sparse.mm(a, b)
print(y)
y.sum().backward()
print(a.grad)
print(b.grad)

weights = torch.tensor([[1.0, -2.0], [0.5, 4.0]])
torch.sparse.mm(a, b).mul(weights).sum().backward()
print(a.grad.to_dense())

idx = torch.tensor([[0, 1, 1], [2, 0, 2]])
s = torch.sparse_coo_tensor(idx, torch.tensor([1.5, -1.0, 2.0]), (2, 3), requires_grad=True)
dense = s.to_dense()
print(dense)
(dense * torch.arange(6.0).view(2, 3)).sum().backward()
print(s.grad)

c = a.detach().to_sparse_csr()
print(c)
for how in ("sum", "mean", "amax", "amin"):
    rhs = torch.tensor([[1.0, -1.0], [2.0, 0.5], [-3.0, 2.0]], requires_grad=True)
    out = torch.sparse.mm(c, rhs, how)
    out.backward(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    print(how, out.tolist(), rhs.grad.tolist(), out.grad_fn.name())

base = torch.ones(2, 2, requires_grad=True)
z = torch.sparse.addmm(base, a, b, beta=0.5, alpha=2.0)
print(z)
z.sum().backward()
print(base.grad)
print(a.grad)

d = torch.mm(a, b)
print(d)
d.sum().backward()
print(a.grad)

try:
    torch.sparse.mm(c, b, "prod")
except RuntimeError as e:
    print(e)
try:
    torch.sparse.mm(c, b, "median")
except RuntimeError as e:
    print(e)
