# Writing into an expanded tensor: expand() makes a view whose rows share the base's memory,
# so fill_, zero_ and masked_fill_ reach the base, while arithmetic in place is refused.
import torch

bias = torch.tensor([0.1, 0.2, 0.3])
batch_bias = bias.expand(4, 3)  # no copy: every row is `bias`
print(batch_bias.stride(), batch_bias.is_contiguous())
batch_bias.fill_(0.5)
print(bias)
batch_bias.zero_()
print(bias, batch_bias.sum())

scores = torch.tensor([[1.0], [2.0]])
wide = scores.expand(2, 4)
mask = torch.tensor([[False, True, False, False], [False, False, False, False]])
wide.masked_fill_(mask, float("-inf"))
print(scores.flatten(), wide[0])

col = torch.arange(3.0).expand(3, 3)
col[0] = torch.tensor([7.0, 8.0, 9.0])  # a row of distinct places: written through
print(col)
col.index_fill_(1, torch.tensor([2]), -1.0)
print(col[:, 0])
col[torch.tensor([True, False, True])] = 4.0
print(col)

for name, op in [
    ("add_", lambda t: t.add_(1)),
    ("mul_", lambda t: t.mul_(2)),
    ("copy_", lambda t: t.copy_(torch.ones(2, 3))),
    ("fill_ with a tensor", lambda t: t.fill_(torch.tensor(1.0))),
    ("a column", lambda t: t.__class__ and t[:, 0].clamp_(0, 1)),
]:
    base = torch.zeros(3)
    try:
        op(base.expand(2, 3))
        print(name, "ok", base)
    except RuntimeError as e:
        print(name, "->", e)

base = torch.zeros(2, 1)
view = base.expand(2, 3)
try:
    view[:, 1] = 2.0
except RuntimeError as e:
    print("setitem ->", str(e)[:60])
view[1, 2] = 3.0
print(base.flatten(), base._version)
safe = base.expand(2, 3).clone()
safe.add_(1)
print(safe, base.flatten())
