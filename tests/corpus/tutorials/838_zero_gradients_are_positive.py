# Where an operation passes no gradient (clamped values, values that are not the maximum),
# PyTorch writes a zero, +0: with a negative upstream gradient the printed gradient shows
# "0.", not "-0.".
import torch
import torch.nn.functional as F

x = torch.tensor([-2.0, 0.5, 3.0, -0.25], requires_grad=True)


def show(name, y):
    x.grad = None
    (y * -2).sum().backward()
    print(f"{name:>9}", x.grad)


show("clamp", x.clamp(-1, 1))
show("clamp min", torch.clamp(x, min=0.0))
show("clamp max", x.clamp(max=1.0))
show("hardtanh", F.hardtanh(x))
show("relu6", F.relu6(x))
show("max", x.max())
show("min", x.min())
show("max dim", x.reshape(2, 2).max(dim=1).values)
show("amax", x.reshape(2, 2).amax(dim=0))
show("ReLU6", torch.nn.ReLU6()(x))

# ties share the gradient
t = torch.tensor([4.0, 1.0, 4.0, 4.0], requires_grad=True)
(t.max() * -3).backward()
print(t.grad)

# a clamped gradient differentiated again
z = torch.tensor([0.5, 2.0], requires_grad=True)
(g,) = torch.autograd.grad((z.clamp(max=1.0) ** 2).sum(), z, create_graph=True)
print(g)
print(torch.autograd.grad(g.sum(), z)[0])

# the shrinkage and threshold activations too
for f in (F.hardshrink, F.softshrink, torch.nn.Threshold(0.1, 20.0)):
    x.grad = None
    (f(x) * -2).sum().backward()
    print(x.grad)
