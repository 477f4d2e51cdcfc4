# Hooks over a group of tensors, as the autograd mechanics notes and forum answers use them:
# know when every parameter of a layer has its gradient (mode="all"), or react to the first
# gradient of a group (mode="any"); leaves outside `inputs=`, retained graphs and removal.
import torch
import torch.nn as nn
from torch.autograd.graph import register_multi_grad_hook

torch.manual_seed(0)
layer = nn.Linear(3, 2)
x = torch.randn(4, 3, requires_grad=True)
calls = []


def all_ready(grads):
    calls.append(len(grads))
    print("all gradients ready:", [None if g is None else tuple(g.shape) for g in grads])
    print("  weight grad norm %.4f" % grads[0].norm().item())


handle = register_multi_grad_hook(list(layer.parameters()), all_ready)
print(type(handle))
out = layer(x).tanh().sum()
out.backward(retain_graph=True)
out.backward()
print(calls)
print(layer.weight.grad)

# A leaf the pass does not reach comes as None.
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = torch.tensor(2.0, requires_grad=True)
h = register_multi_grad_hook((a, b, c), lambda gs: print("group:", gs))
(a * b).sum().backward()
(a * b * c).sum().backward(inputs=[a, c])
try:
    torch.autograd.grad((a * c).sum(), [a])
except RuntimeError as e:
    print("RuntimeError:", e)
h.remove()
(a * b * c).sum().backward()
print("removed: no call above")

# mode="any": the first gradient computed, once per pass.
first = register_multi_grad_hook([a, b], lambda g: print("first:", g), mode="any")
(a * 10 + b * 20).sum().backward()
(b ** 2).sum().backward()
first.remove()

# Intermediate tensors, with their own hooks.
h1 = x * 2
h2 = (h1 ** 2).sum(dim=1)
h2.register_hook(lambda g: print("h2 hook", g))
register_multi_grad_hook([h1, h2], lambda gs: print("both:", gs[0][0], gs[1]))
h2.sum().backward()

try:
    register_multi_grad_hook([a], print, mode="every")
except ValueError as e:
    print("ValueError:", e)
