import torch

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = x * 3
log = []


def first(g):
    log.append(("first", g.tolist()))
    return g + 1


def second(g):
    log.append(("second", g.tolist()))


def third(g):
    log.append(("third", g.tolist()))
    return g * 10


y.register_hook(first)
y.register_hook(second)
y.register_hook(third)
y.retain_grad()
y.sum().backward()
for entry in log:
    print(entry)
print("y.grad:", y.grad)
print("x.grad:", x.grad)

# a hook on a leaf changes what gets accumulated
w = torch.ones(2, requires_grad=True)
handle = w.register_hook(lambda g: g.clamp(max=0.5))
(w * torch.tensor([0.2, 4.0])).sum().backward()
print(w.grad)
handle.remove()
(w * torch.tensor([0.2, 4.0])).sum().backward()
print(w.grad)
