# A tiny segmentation head trained one step: per-pixel class scores (N, C, H, W) against a
# label map (N, H, W), with an ignored border label, class weights, and a 1-d sequence
# tagging loss (N, C, L) beside it, as the CrossEntropyLoss / NLLLoss docs describe.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
conv = nn.Conv2d(2, 3, kernel_size=3, padding=1)
images = torch.randn(2, 2, 4, 4)
labels = torch.randint(0, 3, (2, 4, 4))
labels[:, 0, :] = 255  # the border row is "don't care"
criterion = nn.CrossEntropyLoss(weight=torch.tensor([0.5, 1.0, 2.0]), ignore_index=255)
scores = conv(images)
loss = criterion(scores, labels)
print(loss)
loss.backward()
print(conv.bias.grad)
print(conv.weight.grad[0, 0])

per_pixel = F.cross_entropy(scores, labels, ignore_index=255, reduction="none")
print(per_pixel.shape, per_pixel.grad_fn.name())
print(per_pixel[0])

logp = F.log_softmax(torch.randn(3, 5, 6, requires_grad=True), dim=1)
tags = torch.randint(0, 5, (3, 6))
nll = nn.NLLLoss(reduction="sum")(logp, tags)
print(nll)
print(F.nll_loss(logp, tags, reduction="none"))

soft = torch.randn(2, 3, 4, 4).softmax(dim=1)
print(F.cross_entropy(scores, soft))
