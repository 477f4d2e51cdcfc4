# Sliding windows with Tensor.unfold: a moving average and a 1-D convolution written by hand
# (checked against F.conv1d), 2-D patches of an image, and the fact that unfold is a view
# whose gradient adds up every window an element appears in.
import torch
import torch.nn.functional as F

signal = torch.tensor([1.0, 3.0, 2.0, 5.0, 4.0, 6.0, 8.0], requires_grad=True)
windows = signal.unfold(0, 3, 1)
print(windows, windows.shape, windows.grad_fn.name())
moving_avg = windows.mean(dim=1)
print(moving_avg)
moving_avg.sum().backward()
print(signal.grad)

torch.manual_seed(0)
kernel = torch.randn(3)
by_hand = (signal.unfold(0, 3, 2) * kernel).sum(-1)
print(by_hand)
print(torch.allclose(by_hand, F.conv1d(signal.view(1, 1, -1), kernel.view(1, 1, -1), stride=2).flatten()))

image = torch.arange(16.0).reshape(4, 4)
patches = image.unfold(0, 2, 2).unfold(1, 2, 2)
print(patches.shape)
print(patches[1, 0])
print(patches.reshape(-1, 4).sum(1))

buf = torch.zeros(6)
view = buf.unfold(0, 2, 2)
view[:, 0] = torch.tensor([1.0, 2.0, 3.0])
print(buf, view.stride())
try:
    buf.unfold(0, 7, 1)
except RuntimeError as e:
    print(e)
