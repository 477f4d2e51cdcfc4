# Data augmentation style shape ops: flip, roll, tile, narrow and their gradients.
import torch

img = torch.arange(12.0).reshape(3, 4).requires_grad_()
mirrored = torch.fliplr(img)
upside = torch.flipud(img)
shifted = torch.roll(img, shifts=(1, -1), dims=(0, 1))
print(mirrored)
print(upside)
print(shifted)

tiled = img.narrow(1, 1, 2).tile((1, 2))
print(tiled)

w = torch.tensor([1.0, 2.0, 3.0, 4.0])
loss = (mirrored * w).sum() + shifted[0, 0] * 10 + tiled.sum()
loss.backward()
print(img.grad)

seq = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
rep = seq.repeat_interleave(torch.tensor([1, 2, 3]))
print(rep)
(rep * torch.arange(6.0)).sum().backward()
print(seq.grad)
