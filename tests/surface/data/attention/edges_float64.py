# Edge cases: a causal mask with a negative scale (PyTorch's fused kernel gives NaN rows, its math
# path does not), a bool mask with a row of no keys, dropout under no_grad, is_causal with
# need_weights=False, a bool attn_mask with a key_padding_mask.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(2)
torch.set_printoptions(precision=10)
q = torch.randn(1, 2, 4, 3, dtype=torch.float64, requires_grad=True)
k = torch.randn(1, 2, 3, 3, dtype=torch.float64, requires_grad=True)
v = torch.randn(1, 2, 3, 3, dtype=torch.float64, requires_grad=True)
m = torch.ones(4, 3, dtype=torch.bool)
m[1] = False
a = F.scaled_dot_product_attention(q, k, v, attn_mask=m, is_causal=True)
b = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=-0.5)
c = F.scaled_dot_product_attention(q[0], k[0], v[0], is_causal=True, scale=-0.5)
with torch.no_grad():
    d = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
e = F.scaled_dot_product_attention(q, k, v, attn_mask=m)
print(a, b, c, d, e, sep="\n")
(a.sum() + (b * c).sum() + e.pow(2).sum()).backward()
print(q.grad, k.grad, v.grad, sep="\n")
mha = nn.MultiheadAttention(6, 2, dtype=torch.float64)
x = torch.randn(3, 2, 6, dtype=torch.float64)
mask = nn.Transformer.generate_square_subsequent_mask(3, dtype=torch.float64)
o1, _ = mha(x, x, x, attn_mask=mask, is_causal=True, need_weights=False)
o2, w2 = mha(x, x, x, attn_mask=mask, is_causal=True)
kpm = torch.tensor([[False, True, False], [False] * 3])
o3, _ = mha(x, x, x, attn_mask=mask.bool(), need_weights=False, key_padding_mask=kpm)
print(o1, o2, w2, o3, sep="\n")
