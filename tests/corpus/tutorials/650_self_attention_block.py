# Self-attention from scratch next to PyTorch's building blocks: scaled dot-product
# attention with a causal mask, then nn.MultiheadAttention on the same batch.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(42)
batch, seq_len, d_model, n_heads = 2, 5, 8, 2

x = torch.randn(batch, seq_len, d_model, requires_grad=True)
Wq = nn.Linear(d_model, d_model, bias=False)
Wk = nn.Linear(d_model, d_model, bias=False)
Wv = nn.Linear(d_model, d_model, bias=False)

q, k, v = Wq(x), Wk(x), Wv(x)

# by hand
scores = q @ k.transpose(-2, -1) / math.sqrt(d_model)
causal = torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool))
scores = scores.masked_fill(~causal, float("-inf"))
weights = F.softmax(scores, dim=-1)
manual = weights @ v
print(weights[0])

# the fused function
fused = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(fused.shape, fused.grad_fn.name())
print(torch.allclose(manual, fused, atol=1e-6))

# split into heads as a transformer block does
def heads(t):
    return t.view(batch, seq_len, n_heads, d_model // n_heads).transpose(1, 2)

out = F.scaled_dot_product_attention(heads(q), heads(k), heads(v), is_causal=True)
out = out.transpose(1, 2).reshape(batch, seq_len, d_model)
print(out[0])
out.sum().backward()
print(x.grad[1])

# the same idea with nn.MultiheadAttention
mha = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
print(mha)
print(mha.in_proj_weight.shape, mha.out_proj.weight.shape)
mask = nn.Transformer.generate_square_subsequent_mask(seq_len)
attn_out, attn_w = mha(x, x, x, attn_mask=mask)
print(attn_out.shape, attn_w.shape)
print(attn_w[0])
padding = torch.tensor([[False, False, False, True, True], [False] * 5])
attn_out2, attn_w2 = mha(x, x, x, key_padding_mask=padding, average_attn_weights=False)
print(attn_w2.shape)
print(attn_w2[0, 1])
loss = attn_out2.pow(2).mean()
loss.backward()
print(loss.item())
print(mha.out_proj.bias.grad)
print(mha.in_proj_bias.grad[:8])
fast, none = mha(x, x, x, need_weights=False)
print(none, fast[1, :2])
