# Keeping an ordered table of layers and of training metrics with collections.OrderedDict.
from collections import OrderedDict

import torch
import torch.nn as nn

torch.manual_seed(3)
layers = OrderedDict()
layers["hidden"] = nn.Linear(3, 4)
layers["act"] = nn.Tanh()
layers["out"] = nn.Linear(4, 1)
net = nn.Sequential(layers)
print(net)

history = OrderedDict()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x = torch.linspace(-1, 1, 12).reshape(4, 3)
y = x.sum(dim=1, keepdim=True)
for step in range(4):
    loss = ((net(x) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    history[f"step{step}"] = round(loss.item(), 5)

# show the latest first, then drop the oldest entry
history.move_to_end("step3", last=False)
print(history)
print("dropped:", history.popitem())
print("front:", history.popitem(last=False))
snapshot = history.copy()
snapshot["note"] = "copy"
print(type(snapshot).__name__, list(snapshot), list(history))
