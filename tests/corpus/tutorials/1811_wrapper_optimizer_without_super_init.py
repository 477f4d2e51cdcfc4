# An optimizer wrapper in the style of "k steps forward, 1 step back": it subclasses
# torch.optim.Optimizer for isinstance checks but never calls super().__init__(), taking the
# inner optimizer's param_groups and keeping its own state. What Optimizer.__init__ would
# have set is missing then, and PyTorch says so when a base method needs it.
from collections import defaultdict

import torch
import torch.nn as nn


class SlowFast(torch.optim.Optimizer):
    def __init__(self, inner, every=3, pull=0.5):
        self.inner = inner
        self.every = every
        self.pull = pull
        self.param_groups = inner.param_groups
        self.state = defaultdict(dict)
        for group in self.param_groups:
            group["count"] = 0

    def sync(self, group):
        for p in group["params"]:
            st = self.state[p]
            if "anchor" not in st:
                st["anchor"] = p.detach().clone()
            anchor = st["anchor"]
            anchor += (p.detach() - anchor) * self.pull
            p.data.copy_(anchor)

    def step(self, closure=None):
        loss = self.inner.step(closure)
        for group in self.param_groups:
            if group["count"] % self.every == 0:
                self.sync(group)
            group["count"] += 1
        return loss


torch.manual_seed(7)
model = nn.Linear(3, 1)
x = torch.randn(20, 3)
y = x @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.3
opt = SlowFast(torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9), every=3)
print(isinstance(opt, torch.optim.Optimizer), opt.param_groups is opt.inner.param_groups)
print(sorted(opt.param_groups[0])[:3], len(opt.state))

for i in range(6):
    model.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    print(f"{i} loss={loss.item():.4f} count={opt.param_groups[0]['count']}")
print(len(opt.state), [round(v, 3) for v in model.bias.tolist()])

# The base class's methods read what its __init__ sets: PyTorch's AttributeErrors.
try:
    opt.zero_grad()
except AttributeError as e:
    print("zero_grad:", e)
try:
    opt.state_dict()
except AttributeError as e:
    print("state_dict:", e)
try:
    opt.add_param_group({"params": [torch.zeros(2, requires_grad=True)]})
except AttributeError as e:
    print("add_param_group:", e)
try:
    print(opt.defaults)
except AttributeError as e:
    print("defaults:", e)

# With defaults assigned too, zero_grad and add_param_group work as the base's.
opt.defaults = opt.inner.defaults
opt.zero_grad()
print(model.weight.grad)
opt.add_param_group({"params": [torch.zeros(2, requires_grad=True)], "count": 0})
print(len(opt.inner.param_groups), opt.param_groups[1]["lr"], opt.param_groups[1]["count"])
print(type(opt).__name__, opt)
