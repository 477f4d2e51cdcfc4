# nn.Embedding(sparse=True): the weight's gradient is a sparse COO tensor
import torch
import torch.nn as nn

torch.manual_seed(0)
emb = nn.Embedding(10, 3, sparse=True)
print(emb)

words = torch.tensor([[1, 2, 4, 5], [4, 3, 2, 9]])
loss = emb(words).sum()
loss.backward()

g = emb.weight.grad
print(g)
print(g.is_sparse, g.layout, g.shape, g.dtype)
print("coalesced?", g.is_coalesced(), "nnz:", g._nnz())
print(g.sparse_dim(), g.dense_dim(), g.size(0), g.dim())
print(type(g), isinstance(g, torch.Tensor))

# the dense gradient: rows hit twice got 2
print(g.to_dense())

c = g.coalesce()
print(c)
print(c.indices())
print(c.values())
print(g._indices())
print(g._values().shape)

try:
    g.indices()
except RuntimeError as e:
    print("error:", e)

try:
    g.values()
except RuntimeError as e:
    print("error:", e)
