# Moving a small CNN to channels_last as the memory-format tutorial does, then checking
# the layouts (strides) and that nothing about the numbers changed.
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv2d(3, 4, kernel_size=3, padding=1),
    nn.ReLU(),
    nn.ConvTranspose2d(4, 2, kernel_size=2, stride=2),
).double()
images = torch.rand(2, 3, 5, 5, dtype=torch.float64)

before = net(images)
print("weight strides before:", net[0].weight.stride(), net[2].weight.stride())

same = nn.utils.convert_conv2d_weight_memory_format(net, torch.channels_last)
print(same is net)
print("weight strides after:", net[0].weight.stride(), net[2].weight.stride())
print(net[0].weight.is_contiguous(), net[0].weight.is_contiguous(memory_format=torch.channels_last))

nhwc = images.to(memory_format=torch.channels_last)
print(nhwc.stride(), nhwc.is_contiguous(memory_format=torch.channels_last))
after = net(nhwc)
print(after.shape, torch.allclose(before, after))
after.pow(2).mean().backward()
print(net[0].weight.grad.shape, net[0].bias.grad)

back = nn.utils.convert_conv2d_weight_memory_format(net, torch.contiguous_format)
print(back[0].weight.stride(), back[0].weight.is_contiguous())

try:
    nn.utils.convert_conv2d_weight_memory_format(net, torch.channels_last_3d)
except RuntimeError as e:
    print("RuntimeError:", e)

vol = nn.Conv3d(2, 3, kernel_size=(1, 2, 2))
nn.utils.convert_conv3d_weight_memory_format(vol, torch.channels_last_3d)
print(vol.weight.stride())
