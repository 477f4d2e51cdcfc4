# A tiny per-pixel classifier: 3 classes over a 3-pixel-wide strip, rare classes weighted up,
# label smoothing on, a few SGD steps; and a look at the loss's last nodes.
import torch
import torch.nn as nn

torch.manual_seed(5)
head = nn.Conv1d(4, 3, kernel_size=1)
features = torch.randn(2, 4, 3)
labels = torch.tensor([[0, 2, 1], [1, 1, 0]])
criterion = nn.CrossEntropyLoss(weight=torch.tensor([0.2, 1.0, 3.0]), label_smoothing=0.15)
opt = torch.optim.SGD(head.parameters(), lr=0.5)
for step in range(4):
    logits = head(features)
    loss = criterion(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))

per_pixel = nn.CrossEntropyLoss(label_smoothing=0.15, reduction="none")(head(features), labels)
print(per_pixel)
print([f.name() for f, _ in loss.grad_fn.next_functions])
print(head.bias.grad)
