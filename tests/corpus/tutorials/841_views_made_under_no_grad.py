# Looking at slices of a weight under torch.no_grad(): a view keeps requires_grad=True,
# a copy does not, and a backward pass gives such a view no gradient.
import torch

w = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], requires_grad=True)
h = w * 2

with torch.no_grad():
    row = w[0]
    col = h[:, 1]
    flat = h.view(-1)
    moved = w.t()
    doubled = row * 2
    copied = col.clone()
    picked = h[[0, 1], [2, 0]]

for name, t in [("row", row), ("col", col), ("flat", flat), ("moved", moved),
                ("doubled", doubled), ("copied", copied), ("picked", picked)]:
    print(f"{name:8s} requires_grad={t.requires_grad} is_leaf={t.is_leaf} grad_fn={t.grad_fn}")

print(row)
print(col)
print(moved)

# used again with grad mode on, the view is an input of the new graph ...
score = (row * torch.tensor([1.0, 2.0, 3.0])).sum()
print(score)
score.backward()
# ... but no gradient is stored in it, and none reaches w through it
print(row.grad, w.grad)

# the weight's own gradient is unaffected
(h.sum() + w[1].sum()).backward()
print(w.grad)

# changing the view in place with grad mode on is refused
try:
    row.mul_(10)
except RuntimeError as e:
    print("RuntimeError:", e)

# inside no_grad it is fine, and it changes the weight
with torch.no_grad():
    row.mul_(10)
    flat[0] = -1.0
print(w)
print(h.requires_grad, flat.requires_grad)

# a weight that is itself a view of a tensor that does not require grad
# (arange(...).reshape(...)): its views made under no_grad do not require grad
v = torch.arange(6.0).reshape(2, 3).requires_grad_()
with torch.no_grad():
    first = v[0]
print(v.requires_grad, first.requires_grad, (first * 2).requires_grad)
