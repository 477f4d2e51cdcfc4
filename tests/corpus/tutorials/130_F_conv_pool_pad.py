import torch
import torch.nn.functional as F

signal = torch.tensor([[[1.0, 2.0, 3.0, 4.0, 5.0]]], requires_grad=True)
kernel = torch.tensor([[[1.0, 0.0, -1.0]]], requires_grad=True)
out = F.conv1d(signal, kernel)
print(out)
out.sum().backward()
print(signal.grad, kernel.grad)
print(F.conv1d(signal.detach(), kernel.detach(), padding=1, stride=2))

img = torch.arange(16.0).reshape(1, 1, 4, 4).requires_grad_()
k = torch.tensor([[[[1.0, 0.0], [0.0, -1.0]]]])
y = F.conv2d(img, k, bias=torch.tensor([0.5]))
print(y)
y.sum().backward()
print(img.grad)

print(F.max_pool2d(img.detach(), 2))
print(F.avg_pool2d(img.detach(), kernel_size=2, stride=2))
print(F.max_pool1d(signal.detach(), 2), F.avg_pool1d(signal.detach(), 3, stride=1))
print(F.pad(torch.ones(2, 2), (1, 1)))
print(F.pad(torch.ones(1, 2), (0, 2, 1, 0), value=-1.0))
