# Attention written by hand with batched matrix products, the way tutorials explain it before
# reaching for nn.MultiheadAttention: scores = Q K^T / sqrt(d) with torch.bmm, a softmax, the
# weighted values, then a backward pass; a masked variant with baddbmm, the same product as
# matmul and einsum, and a wider head (past the small-product loop) in float32 and float64.
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)
batch, seq, d = 2, 4, 8
x = torch.randn(batch, seq, d)
Wq = torch.randn(d, d, requires_grad=True)
Wk = torch.randn(d, d, requires_grad=True)
Wv = torch.randn(d, d, requires_grad=True)

q, k, v = x @ Wq, x @ Wk, x @ Wv
scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(d)
attn = F.softmax(scores, dim=-1)
out = torch.bmm(attn, v)
print(scores[0])
print(out[1])
print(out.grad_fn.name(), scores.grad_fn.name(), scores.grad_fn.next_functions[0][0].name())

loss = out.pow(2).mean()
loss.backward()
print(loss.item())
print(Wq.grad)
print(Wk.grad[0].tolist())
print(Wv.grad[:2])

# a causal mask added inside the product: baddbmm(mask, q, k^T, alpha=1/sqrt(d))
mask = torch.triu(torch.full((seq, seq), float("-inf")), diagonal=1).expand(batch, seq, seq)
q2 = torch.randn(batch, seq, d, requires_grad=True)
k2 = torch.randn(batch, seq, d, requires_grad=True)
masked = torch.baddbmm(mask, q2, k2.transpose(1, 2), alpha=1 / math.sqrt(d))
w = masked.softmax(dim=-1)
print(w[0])
(w @ torch.arange(float(seq)).reshape(1, seq, 1)).sum().backward()
print(q2.grad[0])
print(k2.grad[1])

# the same products written as matmul and einsum print the same numbers
print(torch.equal(q @ k.transpose(-2, -1), torch.bmm(q, k.transpose(1, 2))))
print(torch.einsum("bqd,bkd->bqk", q, k)[0, :2].tolist())
print(torch.bmm(q, k.transpose(1, 2))[0, :2].tolist())

# a wider head: past the small-product loop, each matrix in mm's order
a = torch.randn(3, 8, 16, requires_grad=True)
b = torch.randn(3, 16, 8, requires_grad=True)
c = torch.bmm(a, b)
print(c[2, :3])
c.sum().backward()
print(a.grad[0, 0], b.grad[1, :, 0])

# longer rows (30 products an element), printed in full
u = torch.randn(2, 3, 30, requires_grad=True)
t = torch.randn(2, 30, 2)
prod = torch.bmm(u, t)
print(prod.tolist())
prod.backward(torch.randn(2, 3, 2))
print(u.grad[1, 0, :4].tolist())

# float64: the small loop's order holds there too
p = torch.randn(2, 3, 30, dtype=torch.float64, requires_grad=True)
r = torch.randn(2, 30, 2, dtype=torch.float64)
s = torch.bmm(p, r)
print(s.tolist())
s.backward(torch.ones_like(s))
print(p.grad[0, :, :3])
