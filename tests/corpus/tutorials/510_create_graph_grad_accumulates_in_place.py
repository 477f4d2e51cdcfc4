# backward(create_graph=True) leaves a .grad that is itself part of a graph (a copy of the
# gradient, CopyBackwards). A later plain backward adds into that same tensor in place, so a
# name bound to it sees the new sum; another create_graph pass replaces it out of place.
import torch

p = torch.tensor([1.5, -0.5], requires_grad=True)
energy = (p**3).sum()
energy.backward(create_graph=True)
g = p.grad
print(g, g.requires_grad, g.is_leaf)
print(type(g.grad_fn).__name__, g.grad_fn.name())

# a penalty on the gradient itself, then a plain backward: accumulates into g in place
penalty = (g**2).sum()
penalty.backward()
print(p.grad)
print(g)
print(p.grad is g)

# a constant gradient under create_graph is copied without a history
q = torch.tensor([2.0, 3.0], requires_grad=True)
(4 * q).sum().backward(create_graph=True)
print(q.grad, q.grad.grad_fn)
(q * q).sum().backward(create_graph=True)
print(q.grad)
held = q.grad
(q * q * q).sum().backward()
print(held, q.grad is held)

# a scalar leaf, summed twice
s = torch.tensor(0.5, requires_grad=True)
torch.exp(s).backward(create_graph=True)
first = s.grad
(first * 2).backward()
print(first, s.grad)
