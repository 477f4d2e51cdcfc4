# Indexing with a 0-dim integer tensor (an argmax, a loop counter kept as a tensor) selects,
# as an integer does: the result is a view, so filling or scaling it changes the original,
# and gradients flow through the change in place.
import torch

scores = torch.tensor([[0.2, 0.9, 0.1], [0.7, 0.3, 0.5], [0.4, 0.8, 0.6]])
best = scores.sum(0).argmax()  # tensor(1): the best column
print("best column:", best)

masked = scores.clone()
column = masked[:, best]
column.fill_(0.0)  # zero the best column in place, through the view
print(masked)
print(column._base is masked)

row = masked[torch.tensor(2)]
row.mul_(10)
print(masked)

# The same in a differentiable computation.
w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
h = w * 2
i = torch.tensor(0)
h[i].mul_(h[1, i].clone())  # scale row 0 by h[1, 0]
h[:, torch.tensor(1)].add_(1.0)
print(h)
print(h.grad_fn.name())
h.sum().backward()
print(w.grad)

# An index tensor with dimensions is a gather (a copy), not a view.
picked = masked[torch.tensor([0, 2])]
picked.zero_()
print(masked)
