# Reflection padding mirrors the border without repeating it, so each side can add at most
# size - 1 values. A small image pyramid hits that limit at its coarsest level: this program
# pads each level as far as allowed, checks the gradient (border pixels are counted more than
# once), and prints PyTorch's message when a level is too small.
import torch
import torch.nn as nn
import torch.nn.functional as F

image = torch.arange(16.0).reshape(1, 1, 4, 4).requires_grad_()
levels = [image, F.avg_pool2d(image, 2), F.avg_pool2d(image, 4)]

for n, level in enumerate(levels):
    h, w = level.shape[-2:]
    pad = (w - 1, w - 1, h - 1, h - 1)
    padded = F.pad(level, pad, mode="reflect")
    print(n, tuple(level.shape), "->", tuple(padded.shape), padded.grad_fn.name())

out = F.pad(levels[0], (3, 3, 3, 3), mode="reflect")
out.sum().backward()
print(image.grad[0, 0])

for shape, pad in [
    ((1, 1, 2, 2), (2, 2, 2, 2)),
    ((1, 1, 2, 2), (1, 1, 2, 2)),
    ((1, 5), (0, 5)),
    ((1, 1, 2, 2, 2), (1, 1, 1, 1, 3, 0)),
]:
    try:
        F.pad(torch.zeros(shape), pad, mode="reflect")
    except RuntimeError as e:
        print(e)

try:
    nn.ReflectionPad2d((1, 1, 4, 0))(torch.zeros(1, 3, 3))
except RuntimeError as e:
    print(e)
