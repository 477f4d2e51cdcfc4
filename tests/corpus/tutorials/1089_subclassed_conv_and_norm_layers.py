# Subclassing torch's own convolution and normalisation layers: a conv + ReLU block that is
# an nn.Conv2d, a batch norm that scales its output, a 1-d conv with its own initialisation
# (PyTorch's __init__ calls the subclass's reset_parameters), a LayerNorm subclass.
import torch
import torch.nn as nn


class ConvReLU(nn.Conv2d):
    def __init__(self, in_ch, out_ch):
        super().__init__(in_ch, out_ch, kernel_size=3, padding=1, bias=False)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(super().forward(x))


class HalfBN(nn.BatchNorm2d):
    def forward(self, x):
        return 0.5 * super().forward(x)


class ConstInitConv1d(nn.Conv1d):
    def reset_parameters(self):
        nn.init.constant_(self.weight, 0.1)
        if self.bias is not None:
            nn.init.zeros_(self.bias)


class PreNorm(nn.LayerNorm):
    def __init__(self, dim, fn):
        super().__init__(dim)
        self.fn = fn

    def forward(self, x):
        return self.fn(super().forward(x))


torch.manual_seed(0)
block = ConvReLU(2, 4)
bn = HalfBN(4)
print(block)
print(bn)
x = torch.randn(2, 2, 5, 5, requires_grad=True)
y = bn(block(x))
y.pow(2).sum().backward()
print(f"y sum {y.sum().item():.4f}, |dx| {x.grad.abs().sum().item():.4f}")
print(bn.running_mean)
print(block.weight.grad[0, 0])
print(isinstance(block, nn.Conv2d), isinstance(bn, nn.BatchNorm2d), type(block).__name__)
print(block.in_channels, block.out_channels, block.kernel_size, block.padding)

conv = ConstInitConv1d(3, 2, kernel_size=2)
print(conv.weight)
print(conv(torch.ones(1, 3, 4)))
print(torch.randn(2))  # the base's draws never happened: the generator is where PyTorch's is

pre = PreNorm(5, nn.Linear(5, 2))
out = pre(torch.randn(3, 5))
print(pre)
print(out)
print([n for n, _ in pre.named_parameters()])
