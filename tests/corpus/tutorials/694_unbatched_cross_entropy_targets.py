# Cross-entropy of one unbatched sample: logits of shape (C,) and a class index. Tutorials
# often write the target as a one-item tensor; PyTorch's forward accepts it.
import torch
import torch.nn as nn
import torch.nn.functional as F

logits = torch.tensor([1.5, -0.5, 0.25], requires_grad=True)
loss_fn = nn.CrossEntropyLoss()
print("0-d target:", loss_fn(logits, torch.tensor(2)))
print("one-item target:", loss_fn(logits, torch.tensor([2])))
print("sum:", F.cross_entropy(logits, torch.tensor([0]), reduction="sum"))
print("none:", F.cross_entropy(logits, torch.tensor([0]), reduction="none"))
print("weighted:", F.cross_entropy(logits, torch.tensor([1]), weight=torch.tensor([1.0, 4.0, 2.0])))

for target, extra in [
    (torch.tensor([0, 1]), {}),
    (torch.tensor([3]), {}),
    (torch.tensor([-1]), {}),
    (torch.tensor([1]), {"label_smoothing": 0.2}),
]:
    try:
        F.cross_entropy(logits, target, **extra)
    except (ValueError, IndexError, RuntimeError) as err:
        print(type(err).__name__ + ":", err)

# The backward of the one-item form is refused; a 0-d target works.
loss = F.cross_entropy(logits, torch.tensor([2]))
try:
    loss.backward()
except RuntimeError as err:
    print("backward:", err)
F.cross_entropy(logits, torch.tensor(2)).backward()
print("grad:", logits.grad)
