# Attention written with torch.einsum, as tutorials on einsum show it: scores between
# queries and keys, softmax, then the weighted sum of the values.
import torch

torch.manual_seed(11)

batch, queries, keys, dim = 2, 5, 7, 40
q = torch.randn(batch, queries, dim, requires_grad=True)
k = torch.randn(batch, keys, dim)
v = torch.randn(batch, keys, dim)

scores = torch.einsum("bqd,bkd->bqk", q, k) / dim**0.5
weights = scores.softmax(dim=-1)
out = torch.einsum("bqk,bkd->bqd", weights, v)
print(scores[0, 0].tolist())
print(out[1, 2, :6].tolist())

# a weighted sum over features, and its gradient
w = torch.randn(dim)
pooled = torch.einsum("bqd,d->bq", out, w)
print(pooled.tolist())
pooled.sum().backward()
print(q.grad[0, 0, :6].tolist())
print(torch.einsum("i,ij->j", w, v[0].t()).tolist())
