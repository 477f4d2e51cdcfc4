# Gradient hooks that edit their argument in place instead of returning a new gradient, as
# some books and forum answers write them: doubling, clipping a layer's gradients with
# clamp_, zeroing part of one. PyTorch hands a leaf's hook the engine's own buffer, so the
# edit lands in .grad when that buffer belongs to the leaf alone (a product, a power, a
# matrix product made it, or several gradients were summed into it).
import torch
import torch.nn as nn

torch.manual_seed(3)


def double_in_place(grad):
    grad *= 2


x = torch.tensor([2.0, 2.0, 2.0, 2.0], requires_grad=True)
x.register_hook(double_in_place)
(x**2).mean().backward()
print("x.grad after the doubling hook:", x.grad)

layer = nn.Linear(3, 2)
for name, p in layer.named_parameters():
    p.register_hook(lambda g: g.clamp_(-0.05, 0.05))
inputs = torch.randn(5, 3)
target = torch.randn(5, 2)
loss = ((layer(inputs) - target) ** 2).mean()
loss.backward()
print(layer.weight.grad)
print(layer.bias.grad)

w = torch.tensor([1.0, -1.0, 0.5], requires_grad=True)


def keep_first_two(grad):
    grad[2:] = 0


w.register_hook(keep_first_two)
y = w * w + 3 * w
y.sum().backward()
print("w.grad:", w.grad)

v = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
v.register_hook(lambda g: g.mul_(10))
(v.t() @ torch.ones(2, 1)).pow(2).sum().backward()
print(v.grad)
