# Gradients of a float16 convolution on the CPU, and a float16 transposed convolution.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)
conv = nn.Conv2d(3, 4, kernel_size=3, padding=1, groups=1).half()
up = nn.ConvTranspose2d(4, 2, kernel_size=3, stride=2, padding=1).half()
x = torch.randn(2, 3, 8, 8).half().requires_grad_()

h = F.relu(conv(x))
y = up(h)
print(y.shape, y.dtype)
print(y[0, 1, 2, :6])
loss = y.float().square().mean()
loss.backward()
print("loss:", round(loss.item(), 4))
print(conv.weight.grad[1, 2])
print(up.weight.grad[3, 0])
print(x.grad[1, 0, 4, :6])
print("bias grads:", conv.bias.grad, up.bias.grad)

signal = torch.randn(1, 2, 16).half().requires_grad_()
kernel = torch.randn(3, 2, 4).half().requires_grad_()
out = F.conv1d(signal, kernel, stride=2, dilation=2)
out.backward(torch.ones_like(out))
print(signal.grad[0, 1])
print(kernel.grad[2])
