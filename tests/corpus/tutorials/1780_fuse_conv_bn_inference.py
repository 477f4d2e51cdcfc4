# Folding BatchNorm into the layer before it for faster inference (torch.nn.utils.fusion)
import torch
import torch.nn as nn
from torch.nn.utils import fuse_conv_bn_eval, fuse_linear_bn_eval
from torch.nn.utils.fusion import fuse_conv_bn_weights

torch.manual_seed(0)


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4 * 4 * 4, 5)
        self.bn_fc = nn.BatchNorm1d(5)

    def forward(self, x):
        x = torch.relu(self.bn(self.conv(x)))
        x = x.flatten(1)
        return self.bn_fc(self.fc(x))


model = SmallNet().double()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x = torch.randn(8, 1, 4, 4, dtype=torch.float64)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

try:
    fuse_conv_bn_eval(model.conv, model.bn)
except AssertionError as e:
    print("still training:", e)

model.eval()
conv = fuse_conv_bn_eval(model.conv, model.bn)
fc = fuse_linear_bn_eval(model.fc, model.bn_fc)
print(conv)
print("conv bias after fusing:", conv.bias)
print("original conv untouched:", model.conv.bias is None)
print(fc.weight.shape, fc.bias.requires_grad)

x = torch.randn(2, 1, 4, 4, dtype=torch.float64)
with torch.no_grad():
    ref = model(x)
    fused = fc(torch.relu(conv(x)).flatten(1))
print("max difference:", (ref - fused).abs().max().item() < 1e-12)
print(fused.round(decimals=6))

# the weights alone, e.g. for a ConvTranspose layer (transpose=True)
up = nn.ConvTranspose2d(4, 2, 2).double().eval()
bn_up = nn.BatchNorm2d(2).double().eval()
bn_up.running_var.fill_(0.25)
w, b = fuse_conv_bn_weights(
    up.weight, up.bias, bn_up.running_mean, bn_up.running_var, bn_up.eps,
    bn_up.weight, bn_up.bias, transpose=True,
)
print(type(w).__name__, w.shape, torch.allclose(w, up.weight * 2.0 / (1 + 4e-5) ** 0.5))
print(b)
