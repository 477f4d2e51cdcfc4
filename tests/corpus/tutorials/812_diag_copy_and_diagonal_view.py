# torch.diag of a matrix is a copy (PyTorch's diagonal_copy node), torch.diagonal a view; both
# send gradients to the diagonal only, and neither keeps anything a backward frees.
import torch

a = torch.arange(9.0).reshape(3, 3).requires_grad_()
d = torch.diag(a)
v = torch.diagonal(a, 1)
m = a.diag(-1)
e = torch.diag(a[0])
print(d, v, m, sep="\n")
print(e)
print(torch.trace(a), a.diagonal().sum())

loss = (d * d).sum() + v.sum() + 3 * m.sum() + e.sum()
loss.backward(retain_graph=True)
print(a.grad)

s = torch.diag(a).sum()
s.backward()
s.backward()
print(a.grad)

with torch.no_grad():
    c = torch.diag(a)
    c[0] = 100.0
    w = a.diagonal()
print(a[0, 0].item(), c, w._base is a)
