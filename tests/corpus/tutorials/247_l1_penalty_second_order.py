# An L1 penalty under second-order autograd, NaN-aware sums, and hypot across dtypes.
import torch

x = torch.tensor([1.5, -0.5, 0.0, 2.0], requires_grad=True)
loss = x.abs().sum() + (x**3).sum()
(g,) = torch.autograd.grad(loss, x, create_graph=True)
print(g)
(h,) = torch.autograd.grad(g.sum(), x)
print(h)
print(torch.autograd.functional.hessian(lambda t: t.abs().sum() + (t**2).sum(), x))
(gg,) = torch.autograd.grad(x.abs().sum(), x, create_graph=True)
print(gg, gg.grad_fn.name())

data = torch.tensor([[1.0, float("nan"), 2.0], [float("nan"), 3.0, -1.0]], requires_grad=True)
s = data.nansum()
print(s, s.grad_fn.name(), s.grad_fn.next_functions[0][0].name())
s.backward()
print(data.grad)
print(data.nansum(dim=1), torch.nansum(data, 0, dtype=torch.float64))
print(torch.tensor([[1, 2], [3, 4]]).nansum(0), torch.tensor([True, True]).nansum())
(w,) = torch.autograd.grad(data.nansum(1, keepdim=True).sum() * 2, data, create_graph=True)
print(w)

a = torch.tensor([3.0, 1.0, 0.3], dtype=torch.float64, requires_grad=True)
b = torch.tensor([4.0, 0.1, 0.7], requires_grad=True)
r = torch.hypot(a, b)
print(r.tolist(), r.dtype)
r.sum().backward()
print(a.grad, b.grad)
