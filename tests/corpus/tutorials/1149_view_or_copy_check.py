# Which tensor operations give a view (shared memory) and which give a copy?
# `_is_view()` and `_base` answer it; a change through a view shows up in the original.
import torch

x = torch.arange(12.0).reshape(3, 4)
print("reshape of arange:", x._is_view(), x._base is not None)

ops = {
    "transpose": lambda t: t.transpose(0, 1),
    "row": lambda t: t[1],
    "fancy index": lambda t: t[[0, 2]],
    "mask": lambda t: t[t > 5],
    "flatten": lambda t: t.flatten(),
    "flatten of t()": lambda t: t.t().flatten(),
    "contiguous": lambda t: t.contiguous(),
    "t().contiguous()": lambda t: t.t().contiguous(),
    "clone": lambda t: t.clone(),
    "detach": lambda t: t.detach(),
    "expand": lambda t: t[:1].expand(2, 4),
    "chunk": lambda t: t.chunk(2, dim=1)[1],
    "to float64": lambda t: t.to(torch.float64),
}
for name, op in ops.items():
    y = op(x)
    print(f"{name:>18}: view={y._is_view()}  same memory as x={y._base is x}")

w = torch.ones(2, 3, requires_grad=True)
h = w * 3
v = h.view(-1)
print(v._is_view(), v._base is h, v.grad_fn.name())
v[0] = 100.0
print(h)
h.sum().backward()
print(w.grad)

col = x[:, 2]
col.fill_(-1)
print(x)
print(col._is_view(), torch.ones(3)._is_view())
