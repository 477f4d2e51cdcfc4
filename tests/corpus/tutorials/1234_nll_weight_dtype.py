# Class-balanced cross-entropy in float64: the class weights built with torch.tensor([...])
# are float32, which PyTorch's kernel refuses; matching the dtype fixes it.
import torch
import torch.nn as nn

torch.manual_seed(11)
logits = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
labels = torch.tensor([0, 1, 1, 2, 1])
counts = torch.bincount(labels, minlength=3)
balance = torch.tensor([1.0, 1.0, 1.0]) / counts
for crit in (nn.CrossEntropyLoss(weight=balance), nn.NLLLoss(weight=balance)):
    try:
        crit(logits, labels)
    except RuntimeError as e:
        print(type(crit).__name__, "refused:", e)
image_logits = torch.randn(2, 3, 2, 2)
image_labels = torch.tensor([[[0, 1], [2, 2]], [[1, 1], [0, 2]]])
try:
    nn.functional.cross_entropy(image_logits, image_labels, weight=balance.double())
except RuntimeError as e:
    print("spatial refused:", e)
loss = nn.CrossEntropyLoss(weight=balance.to(logits.dtype))(logits, labels)
loss.backward()
print(loss)
print(logits.grad)
