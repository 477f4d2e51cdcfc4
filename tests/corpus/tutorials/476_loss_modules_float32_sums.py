# A loss module over thousands of float32 values: the sum (and the mean) are PyTorch's own
# float32 sums, so the printed loss matches digit for digit.
import math

import torch

torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
a = torch.randn((), requires_grad=True)
b = torch.randn((), requires_grad=True)
pred = a + b * x

sum_loss = torch.nn.MSELoss(reduction="sum")(pred, y)
mean_loss = torch.nn.MSELoss()(pred, y)
print(sum_loss.item(), mean_loss.item())
sum_loss.backward()
print(a.grad.item(), b.grad.item())

probs = torch.sigmoid(pred.detach() * 0.1)
targets = (y > 0).float()
print(torch.nn.BCELoss(reduction="sum")(probs, targets).item())
print(torch.nn.functional.binary_cross_entropy(probs, targets).item())
