# Heads kept by name: a ModuleDict copied from another, updated from one, and what a
# ModuleList made from a ModuleDict iterates (its keys, which are not modules).
import torch
import torch.nn as nn

torch.manual_seed(7)

heads = nn.ModuleDict({"cls": nn.Linear(3, 2), "reg": nn.Linear(3, 1)})
shared = nn.ModuleDict(heads)  # the same modules under the same names
shared.update(nn.ModuleDict({"aux": nn.Linear(3, 4)}))
print(list(shared.keys()), shared["cls"] is heads["cls"])

x = torch.randn(4, 3)
total = sum(h(x).pow(2).mean() for h in shared.values())
total.backward()
print(round(total.item(), 5))
print(heads["reg"].weight.grad)

try:
    nn.ModuleDict({0: nn.ReLU()})
except TypeError as e:
    print("TypeError:", e)

try:
    nn.ModuleList(heads)
except TypeError as e:
    print("TypeError:", e)

print(nn.ModuleList(heads.values()))
