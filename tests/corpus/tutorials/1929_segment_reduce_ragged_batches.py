# Pooling a ragged batch: the rows of `feats` belong to 3 sequences of lengths 2, 0 and 3;
# torch.segment_reduce reduces each sequence's rows, and its gradient flows back to them.
import torch

feats = torch.tensor(
    [[0.5, -1.0], [2.0, 3.0], [1.5, 1.5], [-2.0, 4.0], [1.5, 0.25]],
    dtype=torch.float64,
    requires_grad=True,
)
lengths = torch.tensor([2, 0, 3])
for reduce in ["sum", "mean", "max", "min", "prod"]:
    pooled = torch.segment_reduce(feats, reduce, lengths=lengths)
    (g,) = torch.autograd.grad(pooled, feats, torch.tensor([[1.0, -1.0], [5.0, 5.0], [2.0, 0.5]], dtype=torch.float64))
    print(reduce, pooled.tolist())
    print(g)

# offsets instead of lengths, an initial value for the empty segment
print(torch.segment_reduce(feats, "amax", offsets=torch.tensor([0, 2, 2, 5]), initial=0.0))
# a segment per row: lengths along the last dimension of a 2-d tensor
x = torch.arange(1.0, 13.0).reshape(3, 4).requires_grad_()
out = torch.segment_reduce(x, "mean", lengths=torch.tensor([[1, 3], [2, 2], [4, 0]]), axis=1)
print(out)
out.nan_to_num().sum().backward()
print(x.grad)

# ties of a max share a positive gradient
t = torch.tensor([3.0, 3.0, 1.0, 1.0], requires_grad=True)
m = torch.segment_reduce(t, "max", lengths=torch.tensor([2, 2]))
m.backward(torch.tensor([4.0, -2.0]))
print(m, t.grad)

for bad in [dict(lengths=torch.tensor([2, 2])), dict(lengths=torch.tensor([-1, 6])), dict()]:
    try:
        torch.segment_reduce(feats, "sum", **bad)
    except RuntimeError as e:
        print("RuntimeError:", e)
try:
    torch.segment_reduce(feats, "median", lengths=lengths)
except RuntimeError as e:
    print("RuntimeError:", e)
g = torch.autograd.grad(torch.segment_reduce(feats, "prod", lengths=lengths).sum(), feats, create_graph=True)[0]
try:
    g.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
