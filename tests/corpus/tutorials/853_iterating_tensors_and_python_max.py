# Looping over a tensor that requires grad, unpacking it, and Python's built-in max/min on
# tensors: what each item is, where the gradient goes, and which in-place changes are refused.
import torch

w = torch.tensor([[1.0, -2.0], [3.0, 0.5], [3.0, -1.0]], requires_grad=True)
h = w * 2
for i, row in enumerate(h):
    print(i, row)

first, second, third = h
print(first.grad_fn.name(), third)

# Python's max() walks the tensor: the first largest item wins and takes the whole gradient
scores = torch.tensor([0.2, 0.9, 0.9, 0.1], requires_grad=True)
best = max(scores)
best.backward()
print(best, scores.grad)

scores.grad = None
low = min(scores * -1)
low.backward()
print(low, scores.grad)

# ... compare with torch.max, which shares the gradient between equal maxima
scores.grad = None
scores.max().backward()
print(scores.grad)

# a key function sees each item
v = torch.tensor([0.5, -3.0, 2.0], requires_grad=True)
far = max(v, key=lambda t: t.abs())
far.backward()
print(far, v.grad)
print(max([torch.tensor(1.5), 2.0, torch.tensor(0.5)]), min(torch.tensor([4, 2, 9])))

rows_sum = sum(r.sum() for r in w)
rows_sum.backward()
print(rows_sum, w.grad)

# the items of unbind/split/chunk (and of a loop over a tensor) are views of it:
# changing one in place while gradients are recorded is refused
for label, pieces in [
    ("loop", lambda: list(h)),
    ("unbind", lambda: h.unbind(1)),
    ("split", lambda: h.split(2)),
    ("split sizes", lambda: torch.split(h, [1, 2])),
    ("chunk", lambda: h.chunk(3, dim=1)),
]:
    p = pieces()
    try:
        p[0].mul_(10)
        print(label, "changed", h)
    except RuntimeError as e:
        print(label, p[0].grad_fn.name(), "->", e)

with torch.no_grad():
    for row in w:
        row.clamp_(min=0.0)
print(w)

buf = torch.zeros(2, 3)
for r in buf:
    r += torch.arange(3.0)
print(buf)
for bad in (torch.ones(2, 2), torch.tensor(1.0)):
    try:
        print(max(bad))
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
