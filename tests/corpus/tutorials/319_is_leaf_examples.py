import torch

torch.manual_seed(0)
a = torch.rand(10, requires_grad=True)
print(a.is_leaf)

b = torch.rand(10, requires_grad=True) + 2
print(b.is_leaf)

c = torch.rand(10, requires_grad=True).double()
print(c.is_leaf)

d = torch.rand(10).requires_grad_()
print(d.is_leaf)

e = torch.rand(10)
print(e.is_leaf, e.requires_grad)

f = torch.rand(10, requires_grad=True).to(torch.float64)
print(f.is_leaf, f.grad_fn.name())

g = torch.rand(10, requires_grad=True).detach()
print(g.is_leaf, g.requires_grad)

s = (a * 2).sum()
s.backward()
print(a.grad[:3], b.grad, c.grad)
