# Multi-class hinge loss: its gradient is fine, but PyTorch's kernel has no second
# derivative; a program asking for one gets PyTorch's error.
import torch
import torch.nn as nn
import torch.nn.functional as F

scores = torch.tensor(
    [[0.2, 0.5, -0.1, 0.9], [1.0, 0.3, 0.4, -0.2], [0.0, 0.1, 0.2, 0.3]],
    dtype=torch.float64,
    requires_grad=True,
)
labels = torch.tensor([1, 0, 3])

loss = F.multi_margin_loss(scores, labels)
print(loss)
print(len(loss.grad_fn.next_functions), type(loss.grad_fn.next_functions[0][0]).__name__)
(grad,) = torch.autograd.grad(loss, scores, create_graph=True)
print(grad)
print(grad.requires_grad, grad.grad_fn.name())
try:
    torch.autograd.grad(grad.sum(), scores)
except RuntimeError as e:
    print("RuntimeError:", e)

squared = nn.MultiMarginLoss(
    p=2, margin=0.5, weight=torch.tensor([1.0, 2.0, 0.5, 1.0], dtype=torch.float64)
)
value = squared(scores, labels)
value.backward()
print(value, scores.grad)

try:
    torch.func.jvp(
        lambda s: F.multi_margin_loss(s, labels),
        (scores.detach(),),
        (torch.ones(3, 4, dtype=torch.float64),),
    )
except NotImplementedError as e:
    print("NotImplementedError:", str(e).splitlines()[0])
