# max/min along a dim keep their indices for backward: the values (or the input) may be
# changed in place afterwards, as a forum answer does with res.flatten()[::k] = 0
import torch
a = torch.tensor([[1., 5., 2.], [4., 0., 6.], [3., 3., 3.]], requires_grad=True)
x = a * 1
v, i = x.max(0)
v[0] = 0.0
x.mul_(2)
v.sum().backward()
print(a.grad, i)
b = torch.tensor([1., 3., 3.], requires_grad=True)
y = b * 1
m = y.max()
m.backward()
print(b.grad)
c = torch.tensor([1., 3., 2.], requires_grad=True)
z = c * 1
w, j = z.min(dim=0, keepdim=True)
print(w, j, w.grad_fn.name())
w.mul_(3)
w.sum().backward()
print(c.grad)
try:
    d = torch.tensor([1., 3.], requires_grad=True) * 1
    m = d.max()
    m.mul_(2)
    m.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
torch.manual_seed(0)
res = torch.randn(3, 3, requires_grad=True) * 1
res, idxs = torch.max(res, 0)
print(res.flatten() is res, res.flatten(0, 0) is res)
res.flatten()[::2] = 0.0
res.sqrt().sum().backward()
print(idxs)
