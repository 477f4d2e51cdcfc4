# A forward hook meant to watch gradients, written as a one-line lambda: it returns the
# handle of the tensor hook it registers, and a forward hook's return value replaces the
# module's output. The next layer then receives the handle instead of a tensor.
import torch
import torch.nn as nn

torch.manual_seed(3)
net = nn.Sequential(nn.Linear(2, 3), nn.Sigmoid(), nn.Linear(3, 1))
seen = []

bad = net[0].register_forward_hook(lambda mod, inp, out: out.register_hook(seen.append))
try:
    net(torch.randn(4, 2))
except TypeError as e:
    print("TypeError:", e)
bad.remove()


# the fix: a hook that registers and returns nothing
def watch(mod, inp, out):
    out.register_hook(lambda g: seen.append(g.abs().sum()))


good = net[0].register_forward_hook(watch)
net(torch.randn(4, 2)).sum().backward()
print(len(seen), seen[-1])
good.remove()
print(net[0].bias.grad)
