# Padding modes, pooling windows and where their gradients go.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1.0, 10.0).reshape(1, 1, 3, 3)
for mode in ["constant", "reflect", "replicate", "circular"]:
    print(mode)
    print(F.pad(x, (1, 1, 1, 0), mode=mode)[0, 0])

print(nn.ZeroPad2d((0, 1, 2, 0))(x).shape)
print(nn.ConstantPad1d(2, -1.0)(torch.ones(1, 3)))
print(nn.ReflectionPad1d((2, 1))(torch.tensor([[[1.0, 2.0, 3.0]]])))

img = torch.tensor([[[[1.0, 5.0, 2.0, 0.0],
                      [3.0, 4.0, 8.0, 1.0],
                      [0.0, 2.0, 6.0, 7.0],
                      [9.0, 1.0, 3.0, 2.0]]]], requires_grad=True)
pool = nn.MaxPool2d(2, return_indices=True)
out, idx = pool(img)
print(out)
print(idx)
out.sum().backward()
print(img.grad)

img.grad = None
avg = F.avg_pool2d(img, kernel_size=3, stride=2, padding=1, count_include_pad=False)
print(avg)
avg.sum().backward()
print(img.grad)

print(F.max_pool2d(img.detach(), 3, stride=2, ceil_mode=True))
print(F.avg_pool2d(img.detach(), 2, ceil_mode=True, padding=1))
print(nn.AvgPool1d(2, stride=1)(torch.tensor([[1.0, 3.0, 5.0, 9.0]])))
print(F.max_pool1d(torch.tensor([[[1.0, 4.0, 2.0, 8.0, 5.0]]]), kernel_size=2, stride=1, dilation=2))
