# Checking a small CNN's gradients in double precision: conv layers (plain, grouped,
# strided, 1-D) trained for one step, their weight and input gradients printed in full.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_printoptions(precision=10)

# a batch of three 1-channel images through an edge-detector-like layer
images = torch.randn(3, 1, 6, 6, dtype=torch.double, requires_grad=True)
edge = nn.Conv2d(1, 4, kernel_size=3, padding=1, bias=False).double()
out = edge(images)
out.pow(2).mean().backward()
print("input grad, image 0 row 0:", images.grad[0, 0, 0])
print("filter 0 grad:\n", edge.weight.grad[0, 0])
print("filter 3 grad sum:", edge.weight.grad[3].sum().item())

# two layers, the second grouped, with biases and a stride
net = nn.Sequential(
    nn.Conv2d(2, 4, 3, stride=2, padding=1),
    nn.Tanh(),
    nn.Conv2d(4, 6, 1, groups=2),
).double()
x = torch.randn(2, 2, 7, 7, dtype=torch.double, requires_grad=True)
loss = net(x).sum()
loss.backward()
for name, p in net.named_parameters():
    print(name, tuple(p.grad.shape), p.grad.flatten()[:5].tolist())
print("x.grad[1, 1, 3]:", x.grad[1, 1, 3].tolist())

# a single output channel (one row of weights) over a batch, and a 1-D signal
w = torch.randn(1, 3, 2, 2, dtype=torch.double, requires_grad=True)
inp = torch.randn(2, 3, 5, 4, dtype=torch.double)
F.conv2d(inp, w).sum().backward()
print("single-channel weight grad:", w.grad.flatten().tolist())

signal = torch.randn(4, 2, 9, dtype=torch.double, requires_grad=True)
k1 = torch.randn(5, 2, 3, dtype=torch.double, requires_grad=True)
y = F.conv1d(signal, k1, stride=1, padding=1)
(y * torch.linspace(-1, 1, y.shape[-1], dtype=torch.double)).sum().backward()
print("conv1d kernel grad:", k1.grad[2].tolist())
print("conv1d signal grad:", signal.grad[3, 0].tolist())

# one SGD step changes the weights by lr * grad
with torch.no_grad():
    before = edge.weight[1, 0, 1].clone()
    edge.weight -= 0.1 * edge.weight.grad
print("filter 1 middle row moved by:", (edge.weight[1, 0, 1] - before).tolist())
