# copy.copy of tensors, as training scripts use it: a "shallow copy" of a flattened gradient used
# as the fixed vector v of a Hessian-vector product, and a shallow copy of a parameter (which
# shares its storage: a change through one shows in the other).
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
x = torch.randn(5, 3)
y = torch.randn(5, 1)
loss = nn.functional.mse_loss(net(x), y)

grads = torch.autograd.grad(loss, list(net.parameters()), create_graph=True)
flat = torch.cat([g.flatten() for g in grads])
v = copy.copy(flat).detach()  # a leaf on the same values, outside the graph
print(v.requires_grad, v.is_leaf, torch.equal(v, flat.detach()))

(flat @ v).backward()
hv = torch.cat([p.grad.flatten() for p in net.parameters()])
print(hv.shape, round(hv.norm().item(), 4))

w = net[0].weight
w2 = copy.copy(w)
print(type(w2).__name__, w2.requires_grad, w2.grad is None)
with torch.no_grad():
    w2.mul_(0.0)
print(net[0].weight.abs().sum().item())

c = copy.copy(flat)  # a shallow copy of a graph result is a new leaf requiring grad
print(c.is_leaf, c.requires_grad, c.grad_fn)
(c * 2).sum().backward()
print(c.grad[:3])
