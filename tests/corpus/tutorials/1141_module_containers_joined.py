# Building a network out of pieces: container modules joined with extend, + and +=.
import torch
import torch.nn as nn

torch.manual_seed(3)

encoder = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
extra = nn.ModuleList([nn.Linear(4, 4), nn.Tanh()])
encoder.extend(extra)  # a ModuleList is itself an iterable of modules
print("encoder holds", len(encoder), "modules")

# a ModuleList made from a Sequential keeps its modules, renumbered
head = nn.Sequential(nn.Linear(4, 2), nn.Softplus())
as_list = nn.ModuleList(head)
print(as_list)

# `+` makes a new list; `+=` grows the list itself
both = encoder + as_list
print(type(both).__name__, len(both), len(encoder))
encoder += [nn.Identity()]
print(len(encoder))

# Sequentials concatenate only with Sequentials
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU()) + nn.Sequential(*both)
print(net)
try:
    net + [nn.ReLU()]
except ValueError as e:
    print("ValueError:", e)

stem = nn.Sequential(nn.Linear(3, 3))
stem.extend(nn.Sequential(nn.Sigmoid()))
stem += nn.Sequential(nn.Linear(3, 4))
print(stem)

# extending a list by itself fails in PyTorch after the first module is added
loop = nn.ModuleList([nn.ReLU(), nn.ReLU()])
try:
    loop.extend(loop)
except RuntimeError as e:
    print("RuntimeError:", e, "- now", len(loop))

try:
    encoder.extend(nn.Linear(2, 2))
except TypeError as e:
    print("TypeError:", e)

# parameters in lists: a ParameterList copied from another shares the same tensors
scales = nn.ParameterList([nn.Parameter(torch.full((4,), 0.5)) for _ in range(2)])
copy = nn.ParameterList(scales)
copy.extend(scales)
print(len(copy), copy[0] is scales[0], copy[3] is scales[1])

# a training step through the joined network
x = torch.randn(5, 3)
target = torch.randn(5, 2)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    out = net(x) * scales[0][:2]
    loss = nn.functional.mse_loss(out, target)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
print(scales[0].grad)
print(net[2].weight.grad.norm())
