# Older tutorials build their losses with size_average= and reduce= (deprecated, still
# honoured): reduce=False keeps one loss per sample, size_average=False sums them.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
scores = torch.randn(4, 3, requires_grad=True)
target = torch.tensor([0, 2, 1, 2])
weight = torch.tensor([0.6, 0.2, 0.2])

per_sample = nn.CrossEntropyLoss(weight=weight, size_average=True, reduce=False)(scores, target)
summed = nn.NLLLoss(size_average=False)(F.log_softmax(scores, dim=1), target)
print(per_sample)
print(summed)
mse_each = F.mse_loss(scores, torch.zeros(4, 3), reduce=False)
print(mse_each.shape, F.l1_loss(scores, torch.zeros(4, 3), None, False).shape)
kl = nn.KLDivLoss(size_average=False, reduce=True)(F.log_softmax(scores, 1), F.softmax(scores.detach() * 2, 1))
print(kl)

rates = torch.randn(5, 2, requires_grad=True)
counts = torch.tensor([[0.0, 1.0], [2.0, 3.0], [0.0, 4.0], [1.0, 1.0], [6.0, 0.0]])
poisson = nn.PoissonNLLLoss()
loss = poisson(rates, counts)
loss.backward()
print(poisson, loss)
print(rates.grad)
full = nn.PoissonNLLLoss(log_input=False, full=True, reduction="none")
print(full(rates.detach().exp(), counts))
total = per_sample.sum() + summed + kl
total.backward()
print(scores.grad)
