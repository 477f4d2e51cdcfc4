# A tiny super-resolution block (sub-pixel convolution) with instance norm, local response
# norm and adaptive max pooling, as image tutorials put them together.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)


class Upscaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 8, 3, padding=1)
        self.norm = nn.InstanceNorm2d(8, affine=True, track_running_stats=True)
        self.act = nn.RReLU()
        self.shuffle = nn.PixelShuffle(2)
        self.lrn = nn.LocalResponseNorm(2)

    def forward(self, x):
        return self.lrn(self.shuffle(self.act(self.norm(self.conv(x)))))


net = Upscaler()
print(net)
x = torch.randn(2, 2, 3, 3)
y = net(x)
print(y.shape, y.grad_fn.name())
print(y[0, 0])
loss = y.pow(2).mean()
loss.backward()
print(loss)
print(net.conv.weight.grad[0, 0])
print(net.norm.weight.grad, net.norm.running_mean)

net.eval()
print(net(x)[1, 1, :2])

pool = nn.AdaptiveMaxPool2d((2, 3), return_indices=True)
out, idx = pool(y.detach())
print(out[0, 0], idx[0, 0])
print(F.adaptive_max_pool1d(torch.arange(10.).view(1, 2, 5), 2, return_indices=True))
print(nn.PixelUnshuffle(2)(y.detach()).shape)

inst = nn.InstanceNorm1d(3)
print(inst, inst(torch.randn(3, 6)))
print(F.instance_norm(torch.randn(1, 2, 4), use_input_stats=True))
