# autograd.grad(out, inputs) runs only the part of the graph between `out` and the inputs:
# the rest keeps its saved values (a later backward through it works), and hooks on tensors
# that lead to no input do not fire. backward(inputs=...) is the same, except that the node
# of a non-leaf input is itself run (and freed).
import torch

# inverse of y = x - 0.9 sin(x) by fixed-point iteration, differentiated w.r.t. y only
x = torch.tensor([20.0], requires_grad=True)
y = x - 0.9 * torch.sin(x)
inv = y.detach().clone()
for _ in range(60):
    inv = y + 0.9 * torch.sin(inv)
(d_inv,) = torch.autograd.grad(inv, y)
(dy_dx,) = torch.autograd.grad(y, x)  # y's own graph was not freed by the first call
print(d_inv, 1.0 / dy_dx)

# a second grad with respect to the intermediate, then a full backward
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
a = w.exp()
b = (a * a).sum()
print(torch.autograd.grad(b, a))
a.sum().backward()
print(w.grad)

# hooks and retain_grad on a branch that leads to no input
seen = []
p = torch.tensor([0.5, -1.5], requires_grad=True)
q = torch.tensor([2.0, 3.0], requires_grad=True)
u = p.sin()
u.register_hook(lambda g: seen.append(("u", g.clone())))
u.retain_grad()
v = q * q
v.register_hook(lambda g: seen.append(("v", g.clone())))
s = (u * v).sum()
print(torch.autograd.grad(s, [q], retain_graph=True))
print(len(seen), seen[0][0], u.grad)
print(torch.autograd.grad(s, [v]))
print(len(seen), seen[-1])

# backward(inputs=[w]) with a leaf: the other leaf's branch stays usable
xx = torch.tensor([0.3, 0.7], requires_grad=True)
ww = torch.tensor([1.2, -0.4], requires_grad=True)
e = xx.exp()
out = (e * ww.sin()).sum()
out.backward(inputs=[ww])
print(ww.grad, xx.grad)
e.sum().backward()
print(xx.grad)

# backward(inputs=[non-leaf]) runs that node: its saved values are freed
r = torch.tensor([1.0, 2.0], requires_grad=True)
m = r.exp()
(m * 3).sum().backward(inputs=[m])
print(m.grad, r.grad)
try:
    m.sum().backward()
except RuntimeError as err:
    print("RuntimeError:", str(err)[:60])

# float64: grad of a loop w.r.t. an intermediate, then of the intermediate w.r.t. the leaf
t = torch.tensor([0.4, 1.1], dtype=torch.float64, requires_grad=True)
h = torch.tanh(t) * 2
k = h
for _ in range(3):
    k = k * torch.cos(k)
(gk,) = torch.autograd.grad(k.sum(), h)
(gh,) = torch.autograd.grad(h.sum(), t)
print(gk, gh)
