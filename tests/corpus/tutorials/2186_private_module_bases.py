# Splitting parameters into weight-decay groups by asking torch.nn.modules' private bases
# (_ConvNd, _BatchNorm, _NormBase, _DropoutNd), as training scripts do.
import torch
import torch.nn as nn
from torch.nn.modules.batchnorm import _BatchNorm, _NormBase
from torch.nn.modules.conv import _ConvNd
from torch.nn.modules.dropout import _DropoutNd
from torch.nn.modules.pooling import _MaxPoolNd

torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv2d(1, 4, 3, padding=1),
    nn.BatchNorm2d(4),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Dropout2d(0.2),
    nn.Flatten(),
    nn.Linear(16, 2),
)
decay, no_decay = [], []
for module in net.modules():
    if isinstance(module, (_ConvNd, nn.Linear)):
        decay.append(module.weight)
        no_decay.append(module.bias)
    elif isinstance(module, _BatchNorm):
        no_decay.extend(module.parameters())
print(len(decay), len(no_decay))
print([type(m).__name__ for m in net if isinstance(m, (_NormBase, _DropoutNd, _MaxPoolNd))])
print(issubclass(nn.ConvTranspose2d, _ConvNd), issubclass(nn.GroupNorm, _NormBase))
print(_ConvNd)
optimizer = torch.optim.AdamW(
    [{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}],
    lr=1e-3,
)
net(torch.randn(2, 1, 4, 4)).sum().backward()
optimizer.step()
print([g["weight_decay"] for g in optimizer.param_groups], net[1].weight)
