# How sparse embedding gradients add up over backward calls
import torch
import torch.nn.functional as F

torch.manual_seed(1)
w = torch.randn(6, 2, requires_grad=True)

# a sum's gradient (expanded ones): the second call appends its entries
F.embedding(torch.tensor([3]), w, sparse=True).sum().backward()
F.embedding(torch.tensor([1, 3]), w, sparse=True).sum().backward()
print(w.grad)

# a gradient with its own values: PyTorch merges the two lists of entries
w.grad = None
F.embedding(torch.tensor([4, 0, 4]), w, sparse=True).pow(2).sum().backward()
g = w.grad
F.embedding(torch.tensor([0, 0, 5]), w, sparse=True).mul(torch.tensor([1.5, -2.0])).sum().backward()
print(g)
print(g is w.grad, g._nnz())
print(g.coalesce())

# padding_idx entries are left out of the gradient
w.grad = None
F.embedding(torch.tensor([[0, 2], [2, 5]]), w, padding_idx=2, sparse=True).sum().backward()
print(w.grad)

# used densely too: the gradient becomes a dense tensor
w.grad = None
out = F.embedding(torch.tensor([1, 1]), w, sparse=True).sum() + (w * 3).sum()
out.backward()
print(w.grad)

# a dense .grad plus a sparse gradient stays dense
w.grad = torch.ones(6, 2)
F.embedding(torch.tensor([2, 2, 0]), w, sparse=True).sum().backward()
print(w.grad)

# torch.autograd.grad hands the sparse gradient back
(gw,) = torch.autograd.grad(F.embedding(torch.tensor([5, 1]), w, sparse=True).sum(), w)
print(gw)

# zero_() empties a sparse gradient
w.grad = None
F.embedding(torch.tensor([1, 2]), w, sparse=True).sum().backward()
w.grad.zero_()
print(w.grad)

try:
    F.embedding(torch.tensor([1, 1]), w, scale_grad_by_freq=True, sparse=True).sum().backward()
except RuntimeError as e:
    print(e)
