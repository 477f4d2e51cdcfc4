# Index tensors of the "wrong" integer type: labels loaded as int32 or uint8, a mask made of
# 0/1 integers, class indices cast to float by a normalisation step. Which calls take them.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(12.0).reshape(3, 4).requires_grad_()
as_int32 = torch.tensor([[0, 3], [1, 1], [2, 0]], dtype=torch.int32)
print(x.gather(1, as_int32))
print(x.index_select(1, torch.tensor([3, 0], dtype=torch.int32)))
print(x[torch.tensor([2, 0], dtype=torch.int32)])
print(x[torch.tensor(1, dtype=torch.int16)], x[:, torch.tensor(2, dtype=torch.int8)])

for dt in [torch.int16, torch.int8, torch.float32, torch.bool]:
    idx = torch.tensor([[1], [0], [1]]).to(dt)
    for name, call in [
        ("gather", lambda: x.gather(1, idx)),
        ("index_select", lambda: x.index_select(0, idx.flatten())),
        ("take", lambda: x.take(idx)),
        ("take_along_dim", lambda: torch.take_along_dim(x, idx, 1)),
        ("embedding", lambda: F.embedding(idx.flatten(), x)),
    ]:
        try:
            call()
            print(dt, name, "ok")
        except RuntimeError as e:
            print(dt, name, "->", e)
    try:
        x[idx.flatten()]
    except IndexError as e:
        print(dt, "x[idx] ->", e)

emb = nn.Embedding(5, 2)
print(emb(torch.tensor([4, 0], dtype=torch.int32)).shape)
for bad in [[4, 0], torch.tensor([4, 0], dtype=torch.uint8)]:
    try:
        emb(bad)
    except (TypeError, RuntimeError) as e:
        print(type(e).__name__, e)
try:
    torch.take_along_dim(x, torch.tensor([[0], [1], [2]], dtype=torch.int32), 1)
except RuntimeError as e:
    print(e)
try:
    x.gather(1, [[0], [1], [2]])
except TypeError as e:
    print(e)

# a 0/1 integer mask is not a condition for where; comparing makes one
mask = torch.tensor([[1, 0, 0, 1]] * 3)
try:
    torch.where(mask, x, 0.0)
except RuntimeError as e:
    print(e)
print(torch.where(mask == 1, x, 0.0))
print(torch.where(mask))
y = torch.where(mask.bool(), x * 2, -x).sum()
y.backward()
print(y, x.grad)

# class indices for a margin loss are int64 only
scores = torch.tensor([[0.2, 1.5, -0.3], [0.9, 0.1, 0.4]], requires_grad=True)
print(F.multi_margin_loss(scores, torch.tensor([1, 0])))
for t in [torch.tensor([1, 0], dtype=torch.int32), torch.tensor([1.0, 0.0])]:
    try:
        F.multi_margin_loss(scores, t)
    except RuntimeError as e:
        print(e)

# counting: integers only
print(torch.bincount(torch.tensor([0, 2, 2, 3], dtype=torch.int16)))
for v in [torch.tensor([0.0, 2.0]), torch.tensor([True, False]), torch.tensor([[1, 2]])]:
    try:
        torch.bincount(v)
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
