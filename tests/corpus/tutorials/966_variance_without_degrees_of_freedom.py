# Sample variance of too few samples: var and std with correction >= n are inf or nan, and so
# are their gradients (PyTorch warns that the degrees of freedom are <= 0).
import torch

x = torch.tensor([[[2.0]]], requires_grad=True)
v = x.var(dim=-1, keepdim=True, unbiased=True)
v.backward()
print(v, x.grad)

for kwargs in ({}, {"dim": 0}, {"correction": 2}, {"dim": 0, "correction": 2}, {"correction": 3}, {"dim": 0, "correction": 3}):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    v = x.var(**kwargs)
    v.sum().backward()
    print(kwargs, v, x.grad)

x = torch.tensor([5.0, 5.0], requires_grad=True)
x.var(correction=2).backward()
print(x.grad)

m = torch.tensor([[1.0, 2.0], [3.0, 5.0]], requires_grad=True)
m.var(dim=1, correction=2).sum().backward()
print(m.grad)
m.grad = None
m.std(dim=1, correction=2).sum().backward()
print(m.grad)

s = torch.tensor([3.0], requires_grad=True)
sd = s.std()
sd.backward()
print(sd, s.grad)

w = torch.tensor([[1.0, 2.0], [3.0, 5.0]], dtype=torch.float64, requires_grad=True)
var, mean = torch.var_mean(w, dim=1, correction=2)
(var + mean).sum().backward()
print(var, mean, w.grad)
