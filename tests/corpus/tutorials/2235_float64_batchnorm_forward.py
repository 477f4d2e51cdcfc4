# Batch normalisation of float64 activations in training mode: normalised outputs, the saved
# statistics folded into the running ones, and evaluation with them, to the last digit.
import torch
import torch.nn as nn

torch.manual_seed(11)
bn1 = nn.BatchNorm1d(3).double()
with torch.no_grad():
    bn1.weight.copy_(torch.tensor([0.5, 1.5, -2.0]))
    bn1.bias.copy_(torch.tensor([0.1, 0.0, 0.3]))
features = torch.randn(10, 3, dtype=torch.float64) * 4 + 2
out = bn1(features)
print(out[:2].tolist())
print(bn1.running_mean.tolist(), bn1.running_var.tolist())

seq = torch.randn(5, 3, 7, dtype=torch.float64) * 0.5 - 1
print(bn1(seq)[1, :, :3].tolist())

bn2 = nn.BatchNorm2d(2, momentum=0.3).double()
images = torch.randn(4, 2, 3, 3, dtype=torch.float64) * 2
print(bn2(images)[0, 1, 0].tolist())
bn2.eval()
print(bn2(images)[3, 0, 2].tolist())
