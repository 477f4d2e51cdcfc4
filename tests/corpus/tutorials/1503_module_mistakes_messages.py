# Mistakes beginners make while building models, and what PyTorch answers: a layer class
# passed where an instance goes, a container given a number, an LSTM given one tensor as its
# state, a scheduler with step_size=0, a loss whose target has another size.
import torch
import torch.nn as nn


class Block(nn.Module):
    def forward(self, x):
        return x


def square(x):
    return x * x


identity = lambda x: x  # noqa: E731


tries = {
    "Sequential(nn.ReLU)": lambda: nn.Sequential(nn.Linear(2, 2), nn.ReLU),
    "Sequential(Block)": lambda: nn.Sequential(Block),
    "Sequential(function)": lambda: nn.Sequential(square),
    "Sequential(lambda)": lambda: nn.Sequential(identity),
    "ModuleList([nn.Tanh])": lambda: nn.ModuleList([nn.Tanh]),
    "ModuleList([tensor])": lambda: nn.ModuleList([torch.ones(2)]),
    "ModuleDict({'a': 3})": lambda: nn.ModuleDict({"a": 3}),
    "ModuleDict().update": lambda: nn.ModuleDict().update({"b": "relu"}),
}
for name, make in tries.items():
    try:
        make()
    except TypeError as e:
        print(f"{name}: {e}")

print(torch.typename(nn.ReLU), torch.typename(nn.ReLU()), torch.typename(Block))
print(torch.typename(square), torch.typename(3), torch.typename(torch.ones(1).double()))

torch.manual_seed(0)
lstm = nn.LSTM(3, 4, batch_first=True)
deep = nn.LSTM(3, 4, num_layers=2, batch_first=True)
x = torch.randn(2, 5, 3)
h0 = torch.zeros(1, 2, 4)
for name, call in [
    ("state as one tensor", lambda: lstm(x, h0)),
    ("state as (h0,)", lambda: lstm(x, (h0,))),
    ("two layers, one tensor", lambda: deep(x, torch.zeros(2, 2, 4))),
    ("cell state of 2-D", lambda: lstm(x, (h0, torch.zeros(2, 4)))),
    ("three states", lambda: lstm(x, (h0, h0, h0))),
]:
    try:
        call()
    except (IndexError, RuntimeError) as e:
        print(f"{name}: {type(e).__name__}: {e}")
out, (h, c) = lstm(x, [h0, h0])
print(out.shape, h.shape, c.shape)

w = torch.zeros(2, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=0)
print("scheduler made", sched.get_last_lr())
opt.step()
try:
    sched.step()
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)

try:
    nn.BCELoss()(torch.rand(3), torch.rand(4))
except ValueError as e:
    print("ValueError:", e)
