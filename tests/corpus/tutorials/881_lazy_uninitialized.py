# Lazy modules infer their input sizes at the first call; before it their
# parameters and buffers are uninitialized placeholders.
import torch
import torch.nn as nn
from torch.nn.parameter import UninitializedBuffer, UninitializedParameter

torch.manual_seed(0)
net = nn.Sequential(nn.LazyLinear(4), nn.LazyBatchNorm1d(), nn.ReLU(), nn.LazyLinear(1))
print(net)
for name, p in net.named_parameters():
    print(name, p, isinstance(p, UninitializedParameter), isinstance(p, nn.Parameter))
for name, b in net.named_buffers():
    print(name, b, isinstance(b, nn.UninitializedBuffer))
print(type(net[0].weight), type(net[1].running_mean))
print(nn.UninitializedParameter, nn.UninitializedBuffer)

try:
    net[0].weight.shape
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
try:
    net[1].running_var + 1
except ValueError as e:
    print("ValueError:", e)

x = torch.randn(6, 3)
y = net(x)
print(y.shape)
print(net)
print(isinstance(net[0].weight, UninitializedParameter), net[0].weight.shape)
print(isinstance(net[1].running_mean, UninitializedBuffer), net[1].running_mean)
y.sum().backward()
print(net[3].weight.grad)

p = nn.UninitializedParameter()
b = UninitializedBuffer()
print(p, b, p.requires_grad, b.requires_grad)
