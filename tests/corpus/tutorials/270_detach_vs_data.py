import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = a.sigmoid()
c = out.detach()
print(c.requires_grad, out.requires_grad, c)
c.zero_()
print(out)
try:
    out.sum().backward()
except RuntimeError as e:
    print("detach:", str(e)[:60])

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = a.sigmoid()
c = out.data
c.zero_()
print(out)
out.sum().backward()
print(a.grad)

p = torch.tensor([0.5, -0.5], requires_grad=True)
q = p.detach().clone().requires_grad_(True)
(q * 3).sum().backward()
print(p.grad, q.grad, q.is_leaf)
