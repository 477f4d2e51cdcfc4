# Operations that do not promote: the value written through an index tensor, cross and
# tensordot's inputs, a LayerNorm's parameters. What a float64 array loaded with NumPy, or an
# int64 count, does to a float32 model.
import torch
import torch.nn as nn
import torch.nn.functional as F

scores = torch.zeros(4)
best = torch.tensor([1, 3])
scores[best] = torch.tensor([0.5, 0.25])
print(scores)
for value in [torch.tensor([0.5, 0.25], dtype=torch.float64), torch.tensor([2, 3]), torch.tensor(1.5, dtype=torch.float64)]:
    try:
        scores[best] = value
    except RuntimeError as e:
        print(e)
scores[1] = torch.tensor(7, dtype=torch.int64)  # a basic index copies: any dtype
scores[scores > 1] = torch.tensor(9, dtype=torch.int32)  # a mask and one value: masked_fill
scores[:2] = torch.tensor([1.0, 2.0], dtype=torch.float64)
print(scores)
try:
    scores.index_put_((best,), torch.tensor(0.0, dtype=torch.float64), accumulate=True)
except RuntimeError as e:
    print(e)
print(scores.index_put((best,), torch.tensor([1.0, 1.0]), accumulate=True))

a, b = torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0], dtype=torch.float64)
print(torch.linalg.cross(a, b.float()))
for f in [lambda: torch.linalg.cross(a, b), lambda: torch.cross(b, a, dim=0), lambda: a.cross(b.long(), dim=0)]:
    try:
        f()
    except RuntimeError as e:
        print(e)
try:
    torch.tensordot(torch.ones(2, 3), torch.ones(3, 2, dtype=torch.float64), dims=1)
except RuntimeError as e:
    print(e)
print(torch.tensordot(torch.ones(2, 3), torch.ones(3, 2), dims=1))

counts = torch.tensor([[3, 1, 0], [2, 2, 5]])
for dim in [0, 1, -1]:
    for fn in [torch.softmax, torch.log_softmax]:
        try:
            fn(counts, dim)
        except NotImplementedError as e:
            print(dim, e)
print(torch.softmax(counts.float(), 0))

# a float16 input through a float32 LayerNorm: computed in float32, given in float16
torch.manual_seed(0)
norm = nn.LayerNorm(3)
x = torch.randn(2, 3)
with torch.no_grad():
    print(norm(x.half()))
    print(F.layer_norm(x.half(), (3,), norm.weight.half(), norm.bias.half()))
for w, bias in [(norm.weight.double(), None), (norm.weight, norm.bias.double())]:
    for inp in [x, x.double(), x.half()]:
        try:
            with torch.no_grad():
                F.layer_norm(inp, (3,), w, bias)
            print(inp.dtype, "ok")
        except RuntimeError as e:
            print(inp.dtype, w.dtype, e)
