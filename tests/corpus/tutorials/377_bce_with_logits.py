# Binary classification losses: BCEWithLogitsLoss on raw scores equals BCELoss after a
# sigmoid; pos_weight for imbalanced labels; reduction='none'; the gradient of the logits.
import torch
from torch import nn

torch.manual_seed(4)
logits = torch.randn(6, requires_grad=True)
target = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0, 0.0])
bce_logits = nn.BCEWithLogitsLoss()
loss = bce_logits(logits, target)
print(loss)
print(nn.BCELoss()(torch.sigmoid(logits), target))
loss.backward()
print(logits.grad)
print(torch.allclose(logits.grad, (torch.sigmoid(logits) - target) / 6))

weighted = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([3.0]))
print(weighted(logits, target))
print(nn.BCEWithLogitsLoss(reduction="none")(logits, target))
m = nn.Sigmoid()
loss2 = nn.BCELoss(reduction="sum")
print(loss2(m(logits), target))
multi = torch.randn(3, 4)
labels = (torch.rand(3, 4) > 0.5).float()
print(labels)
print(nn.BCEWithLogitsLoss(pos_weight=torch.ones(4) * 2)(multi, labels))
