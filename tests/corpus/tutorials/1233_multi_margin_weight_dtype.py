# Class weights for the multi-class hinge loss must share the scores' dtype: a float64 model
# with float32 weights is refused (cast the weights with .to(scores.dtype)).
import torch
import torch.nn as nn

torch.manual_seed(7)
scores = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
target = torch.tensor([0, 2, 1, 2])
class_w = torch.tensor([1.0, 3.0, 0.5])
try:
    nn.MultiMarginLoss(weight=class_w)(scores, target)
except RuntimeError as e:
    print("refused:", e)
try:
    nn.functional.multi_margin_loss(scores.float(), target, weight=class_w.double())
except RuntimeError as e:
    print("refused:", e)
loss = nn.MultiMarginLoss(weight=class_w.to(scores.dtype))(scores, target)
loss.backward()
print(loss)
print(scores.grad)
