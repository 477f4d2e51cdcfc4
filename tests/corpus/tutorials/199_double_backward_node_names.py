# What a double backward's results show as their grad_fn: the gradient of a reduction goes
# back through an unsqueeze (or a whole sum's expand), so differentiating it again shows the
# nodes that undo those.
import torch
from torch.autograd.functional import jvp, vjp

x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]], requires_grad=True)
u = torch.ones_like(x)

for name, f in [
    ("sum(dim=1)", lambda t: t.exp().sum(dim=1)),
    ("mean(dim=0)", lambda t: (t * t).mean(dim=0)),
    ("sum()", lambda t: t.sin().sum()),
    ("sum((0, 1))", lambda t: t.tanh().sum((0, 1))),
    ("amax(dim=1)", lambda t: t.amax(dim=1)),
]:
    out, tangent = jvp(f, x, u, create_graph=True)
    print(f"{name:12s}", tangent, type(tangent.grad_fn).__name__)

y = x.unsqueeze(0) * 2
g = torch.ones(1, 2, 3, requires_grad=True)
(gx,) = torch.autograd.grad(y, x, g, create_graph=True)
print(gx.grad_fn.name(), [type(n).__name__ for n, _ in gx.grad_fn.next_functions])
z = x.reshape(1, 6).squeeze(0)
(gz,) = torch.autograd.grad(z, x, torch.arange(6.0, requires_grad=True), create_graph=True)
print(gz.grad_fn.name(), gz.grad_fn.next_functions[0][0].name())
w = x.sum(1)
(gw,) = torch.autograd.grad(w, x, torch.ones(2, requires_grad=True), create_graph=True)
print(gw.grad_fn.name(), gw.grad_fn.next_functions[0][0].name())
print(vjp(lambda t: t.pow(3).sum(dim=0), x, torch.ones(3), create_graph=True)[1])
