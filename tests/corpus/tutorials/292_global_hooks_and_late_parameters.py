# Hooks on every module's call, and a parameter assigned where a plain value was.
import torch
import torch.nn as nn
from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook

torch.manual_seed(0)
calls = []


def pre(module, args):
    calls.append(("pre", type(module).__name__, tuple(a.shape for a in args)))


def post(module, args, output):
    calls.append(("post", type(module).__name__, tuple(output.shape)))


h1 = register_module_forward_pre_hook(pre)
h2 = torch.nn.modules.module.register_module_forward_hook(post)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
out = net(torch.randn(5, 3))
for c in calls:
    print(c)
h1.remove()
h2.remove()
calls.clear()
net(torch.randn(1, 3))
print("after remove:", calls)


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = None
        self.factor = 2.0

    def forward(self, x):
        if self.weight is None:
            self.weight = nn.Parameter(torch.ones(x.shape[-1]))
        return x * self.weight * self.factor


m = Scale()
print(m.weight, [n for n, _ in m.named_parameters()])
y = m(torch.arange(3.0))
print(m.weight, [n for n, _ in m.named_parameters()])
m.factor = nn.Parameter(torch.tensor(3.0))
print(m.factor, [n for n, _ in m.named_parameters()])
m(torch.arange(3.0)).sum().backward()
print(m.weight.grad, m.factor.grad)
