# Watching gradients flow through every module at once with the global
# backward hooks of torch.nn.modules.module.
import torch
import torch.nn as nn
from torch.nn.modules.module import (
    register_module_full_backward_hook,
    register_module_full_backward_pre_hook,
)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1))
x = torch.randn(5, 4, requires_grad=True)

norms = {}


def record(module, grad_input, grad_output):
    name = type(module).__name__
    gi = [None if g is None else round(g.norm().item(), 4) for g in grad_input]
    go = [round(g.norm().item(), 4) for g in grad_output]
    print(f"{name:10s} grad_input norms {gi} grad_output norms {go}")
    norms[name] = go[0]


def before(module, grad_output):
    print("about to backward through", type(module).__name__, tuple(grad_output[0].shape))


handle = register_module_full_backward_hook(record)
pre = register_module_full_backward_pre_hook(before)
print(type(handle).__name__)

loss = model(x).pow(2).mean()
loss.backward()
print(sorted(norms))
print(x.grad)

# removing the hooks stops them
handle.remove()
pre.remove()
x.grad = None
model(x).pow(2).mean().backward()
print("after removal:", x.grad.sum())

# a pre-hook can scale every module's output gradient (a crude gradient damping)
damp = register_module_full_backward_pre_hook(lambda m, g: (g[0] * 0.5,))
x.grad = None
model(x).pow(2).mean().backward()
print("damped:", x.grad.sum())
damp.remove()

# global hooks run before a module's own
model[2].register_full_backward_hook(lambda m, gi, go: print("own hook of the last Linear"))
g = register_module_full_backward_hook(lambda m, gi, go: print("global hook:", type(m).__name__))
model(x).sum().backward()
g.remove()
