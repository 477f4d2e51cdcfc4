# Deduplicating the values of a tensor that requires grad: torch.unique keeps the tensor in
# the graph (its grad_fn is shown) but PyTorch has no derivative for it, so a backward through
# the unique values is an error. Gathering the values by index has a gradient.
import torch

scores = torch.tensor([0.25, 1.5, 0.25, -2.0, 1.5, 0.75], requires_grad=True)

vals, inverse, counts = torch.unique(scores, return_inverse=True, return_counts=True)
print(vals)
print(inverse, counts)
print(vals.requires_grad, vals.is_leaf, vals.grad_fn.name())

try:
    vals.sum().backward()
except NotImplementedError as err:
    print("backward:", err)

try:
    torch.autograd.grad((vals * 2).sum(), scores)
except RuntimeError as err:  # (NotImplementedError is a RuntimeError)
    print("grad:", err)

# rows of a matrix, and runs of equal neighbours
table = torch.tensor([[1.0, 2.0], [3.0, 4.0], [1.0, 2.0]], dtype=torch.float64, requires_grad=True)
rows = torch.unique(table, dim=0)
print(rows)
runs = torch.unique_consecutive(scores.detach().repeat_interleave(2).requires_grad_())
print(runs)
for t in (rows, runs):
    try:
        t.pow(2).sum().backward()
    except RuntimeError as err:
        print(type(err).__name__, err)

# the same values reached by indexing: a gradient flows (repeats summed back)
first = torch.zeros_like(vals, dtype=torch.long).scatter_reduce(
    0, inverse, torch.arange(len(scores)), reduce="amin", include_self=False
)
picked = scores[first]
print(picked)
(picked * torch.arange(1.0, 1.0 + len(picked))).sum().backward()
print(scores.grad)

with torch.no_grad():
    print(torch.unique(scores))
print(torch.unique(scores.detach()).requires_grad)
