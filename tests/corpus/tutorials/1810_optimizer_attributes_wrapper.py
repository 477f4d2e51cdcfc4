# A wrapper optimizer that looks around the current weights before stepping (the
# "sharpness-aware" recipe): it shares its parameter groups with the inner optimizer it
# drives, and gives them back to it after load_state_dict. Along the way: resetting an
# optimizer's moments by assigning a fresh state, and attributes PyTorch simply keeps.
import collections

import torch
import torch.nn as nn

torch.manual_seed(3)


class LookAround(torch.optim.Optimizer):
    def __init__(self, params, inner_cls, radius=0.05, **inner_kwargs):
        super().__init__(params, dict(radius=radius, **inner_kwargs))
        self.inner = inner_cls(self.param_groups, **inner_kwargs)
        self.param_groups = self.inner.param_groups  # one list of groups for both

    @torch.no_grad()
    def climb(self):
        norm = torch.norm(torch.stack([p.grad.norm() for g in self.param_groups
                                       for p in g["params"] if p.grad is not None]))
        for g in self.param_groups:
            for p in g["params"]:
                if p.grad is None:
                    continue
                shift = p.grad * (g["radius"] / (norm + 1e-12))
                self.state[p]["shift"] = shift
                p.add_(shift)
        self.zero_grad()

    @torch.no_grad()
    def descend(self):
        for g in self.param_groups:
            for p in g["params"]:
                if "shift" in self.state[p]:
                    p.sub_(self.state[p]["shift"])
        self.inner.step()
        self.zero_grad()

    def load_state_dict(self, state_dict):
        super().load_state_dict(state_dict)
        self.inner.param_groups = self.param_groups


net = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1)).double()
x = torch.linspace(-1, 1, 12, dtype=torch.float64).reshape(6, 2)
y = (x[:, :1] * x[:, 1:]).sin()
loss_fn = nn.MSELoss()
opt = LookAround(net.parameters(), torch.optim.SGD, radius=0.1, lr=0.2, momentum=0.5)
print(opt.param_groups is opt.inner.param_groups, opt.defaults["radius"])

for step in range(3):
    loss = loss_fn(net(x), y)
    loss.backward()
    opt.climb()
    loss_fn(net(x), y).backward()
    opt.descend()
    print(f"step {step}: loss {loss.item():.10f}")

saved = opt.state_dict()
opt.load_state_dict(saved)
print("shared after loading:", opt.inner.param_groups is opt.param_groups)
opt.param_groups[0]["lr"] = 0.05  # one change, seen by the inner optimizer
print(opt.inner.param_groups[0]["lr"], sorted(opt.state[net[0].bias]))

# Resetting Adam's moments: a fresh defaultdict in place of the old state.
adam = torch.optim.Adam(net.parameters(), lr=0.01)
for _ in range(2):
    adam.zero_grad()
    loss_fn(net(x), y).backward()
    adam.step()
print(adam.state[net[2].bias]["step"], len(adam.state))
adam.state = collections.defaultdict(dict)
print(len(adam.state), adam.state_dict()["state"])
adam.zero_grad()
loss_fn(net(x), y).backward()
adam.step()
print(adam.state[net[2].bias]["step"], net[2].bias)

# An attribute of the optimizer is only an attribute: the step reads param_groups.
adam.lr = 100.0
print(adam.lr, adam.param_groups[0]["lr"])

# Another optimizer can take over Adam's groups; a group that lost a hyperparameter the
# step needs fails there, with PyTorch's KeyError.
sgd = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)
sgd.param_groups = adam.param_groups
try:
    sgd.step()
except KeyError as e:
    print("KeyError:", e)
adam.defaults = {"lr": 0.5}
try:
    adam.step()
except KeyError as e:
    print("KeyError:", e)
