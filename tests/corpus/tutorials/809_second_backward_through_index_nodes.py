# Which graphs a second backward (without retain_graph) may go through again: PyTorch frees
# what a node saved, index tensors included (advanced indexing, gather, embedding, sort,
# scatter, item assignment), while nodes that saved nothing (slices, flip, a sum) can be
# walked again.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
w = torch.randn(4, 3, requires_grad=True)
rows = torch.tensor([2, 0, 2])


def twice(name, make):
    w.grad = None
    out = make(w).sum()
    out.backward()
    first = w.grad.clone()
    try:
        out.backward()
        print(f"{name:>14}: walked twice, grad doubled: {torch.allclose(w.grad, 2 * first)}")
    except RuntimeError as e:
        print(f"{name:>14}: {str(e)[:55]}")


twice("slice", lambda t: t[1:, :2])
twice("int index", lambda t: t[1])
twice("flip", lambda t: t.flip(0))
twice("tensor index", lambda t: t[rows])
twice("list index", lambda t: t[[0, 3]])
twice("mask", lambda t: t[t > 0])
twice("index_select", lambda t: t.index_select(1, torch.tensor([0, 2])))
twice("gather", lambda t: t.gather(1, torch.tensor([[0], [1], [2], [0]])))
twice("sort", lambda t: t.sort(dim=1).values)
twice("topk", lambda t: t.topk(2, dim=0).values)
twice("embedding", lambda t: F.embedding(rows, t))
twice("scatter_add", lambda t: torch.zeros(4, 5).scatter_add(1, torch.tensor([[4]] * 4), t[:, :1]))
twice("index_add", lambda t: torch.zeros(5, 3).index_add(0, torch.tensor([4, 0, 4, 1]), t))


def assigned(t):
    z = torch.zeros(6, 3)
    z[1:5] = t * 2
    return z


twice("item assign", assigned)

# the usual mistake: two losses over one shared embedding lookup
emb = nn.Embedding(10, 4)
vec = emb(torch.tensor([1, 5]))
loss_a = vec.pow(2).sum()
loss_b = vec.abs().sum()
loss_a.backward()
try:
    loss_b.backward()
except RuntimeError as e:
    print("second loss:", str(e)[:50])

# keeping the graph lets both losses through, and their gradients add up
emb.weight.grad = None
vec = emb(torch.tensor([1, 5]))
vec.pow(2).sum().backward(retain_graph=True)
vec.abs().sum().backward()
print(emb.weight.grad[[1, 5]])
