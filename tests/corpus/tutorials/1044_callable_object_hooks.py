# Hooks that are not plain functions: a small class with __call__ that keeps state (a gradient
# clipper counting its calls), functools.partial for a hook with settings, and the messages
# PyTorch gives when such hooks return gradients of the wrong size or type.
import functools

import torch
import torch.nn as nn


class ClipAndCount:
    def __init__(self, limit):
        self.limit = limit
        self.calls = 0

    def __call__(self, grad):
        self.calls += 1
        return grad.clamp(-self.limit, self.limit)


def scale(grad, factor):
    return grad * factor


torch.manual_seed(0)
x = torch.randn(4, requires_grad=True)
y = x * 5
clip = ClipAndCount(2.0)
y.register_hook(clip)
y.register_hook(functools.partial(scale, factor=0.5))
(y**2).sum().backward()
print(x.grad, clip.calls)


class GradLogger:
    def __init__(self):
        self.norms = []

    def __call__(self, module, grad_input, grad_output):
        self.norms.append(round(grad_output[0].norm().item(), 4))


net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
logger = GradLogger()
for layer in net:
    layer.register_full_backward_hook(logger)
net(torch.randn(5, 3)).sum().backward()
print(logger.norms)

w = torch.ones(3, requires_grad=True)
w.register_post_accumulate_grad_hook(
    functools.partial(lambda p, tag: print(tag, p.grad), tag="acc")
)
(w * torch.tensor([1.0, 2.0, 3.0])).sum().backward()


class Truncate:
    def __call__(self, grad):
        return grad[:2]


z = torch.ones(3, requires_grad=True)
(z * 2).register_hook(Truncate())
h = z * 2
h.register_hook(Truncate())
try:
    h.sum().backward()
except RuntimeError as e:
    print(e)

h = z * 2
h.register_hook(functools.partial(lambda g, dt: g.to(dt), dt=torch.float64))
try:
    h.sum().backward()
except RuntimeError as e:
    print(e)

lin = nn.Linear(2, 2)
lin.register_full_backward_hook(lambda m, gi, go: (gi[0][:1],))
try:
    lin(torch.ones(3, 2, requires_grad=True)).sum().backward()
except RuntimeError as e:
    print(e)
lin = nn.Linear(2, 2)
lin.register_full_backward_hook(lambda m, gi, go: (gi[0].double(),))
try:
    lin(torch.ones(3, 2, requires_grad=True)).sum().backward()
except RuntimeError as e:
    print(e)
