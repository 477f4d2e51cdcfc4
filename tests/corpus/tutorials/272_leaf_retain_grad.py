import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 3
c = b.pow(2).sum()
b.retain_grad()
c.backward()
print(a.is_leaf, b.is_leaf, c.is_leaf)
print(a.grad, b.grad)
print(b.grad_fn.name(), c.grad_fn.name())
print(b.requires_grad, torch.tensor([1.0]).is_leaf)
d = torch.zeros(2)
d.requires_grad = True
(d + a).sum().backward()
print(d.grad, a.grad)
