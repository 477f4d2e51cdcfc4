# torch.Tensor(t) does not copy: it is a second tensor object on t's memory. resize_ gives
# a tensor a new shape in place, reading its elements in order (the first ones when it
# shrinks); it refuses tensors that require grad.
import torch

t = torch.arange(12.0).reshape(3, 4)
r = torch.Tensor(t)
print(r is t, r.shape)
r.resize_(2, 6)
print(r)
print(t.shape)
r[0, 0] = 100.0
print(t[0])
r.zero_()
print(t.sum())

i = torch.arange(5)
j = torch.Tensor(i)
print(j, j.dtype)
print(torch.FloatTensor(torch.ones(2)))

w = torch.ones(3, requires_grad=True)
a = torch.Tensor(w)
print(a.requires_grad, a.is_leaf, a.grad_fn.name())
(a * 2).sum().backward()
print(w.grad)

v = torch.linspace(0, 1, 6)
v.resize_(4)
print(v)
v.resize_((2, 2))
print(v)
v.resize_as_(torch.zeros(1, 4))
print(v)
u = v[0, 1:]
u.resize_(1, 3)
print(u, v)
print(torch.arange(4.0).resize_(0))

for bad in (
    lambda: w.resize_(1, 3),
    lambda: torch.arange(3.0).resize_(-1),
    lambda: torch.arange(3.0).resize_(2.5),
):
    try:
        bad()
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
try:
    torch.FloatTensor(torch.arange(3))
except TypeError as e:
    print("TypeError", str(e)[:40])
