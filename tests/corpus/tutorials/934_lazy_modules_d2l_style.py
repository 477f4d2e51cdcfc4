# Lazy modules as d2l writes its networks: nn.LazyConv2d, nn.LazyBatchNorm2d and nn.LazyLinear
# infer their input sizes at the first call (drawing their parameters then); plus the
# deprecated torch.range and torch.set_float32_matmul_precision seen at the top of notebooks.
import torch
import torch.nn as nn

torch.set_float32_matmul_precision("high")
print(torch.get_float32_matmul_precision())
torch.manual_seed(42)

def block(out_channels):
    return nn.Sequential(nn.LazyConv2d(out_channels, kernel_size=3, padding=1),
                         nn.LazyBatchNorm2d(), nn.ReLU(), nn.MaxPool2d(2))

net = nn.Sequential(block(4), block(6), nn.Flatten(), nn.LazyLinear(3))
print(net)
print(net[0][0].weight)
X = torch.randn(2, 1, 8, 8)
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, "output shape:\t", X.shape)
print(net)
out = net(torch.randn(2, 1, 8, 8))
loss = out.logsumexp(dim=1).mean()
loss.backward()
print(f"{loss.item():.6f}")
print(net[0][0].weight.grad[0, 0])
print(net[1][1].running_mean, net[1][1].num_batches_tracked)

seq = nn.Sequential(nn.LazyConv1d(2, 3), nn.LazyBatchNorm1d(affine=False))
print(seq, seq(torch.randn(3, 4, 5)).shape, seq)

print(torch.range(1, 5), torch.range(0, 1, 0.2))
print(torch.range(-3, 3, 1.5, dtype=torch.float64))
