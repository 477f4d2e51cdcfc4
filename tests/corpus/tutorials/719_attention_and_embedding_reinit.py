# Re-initialising attention and embedding layers: nn.MultiheadAttention's own
# _reset_parameters (xavier in-projection, zero biases), an embedding table with a padding row
# reset between experiments, and the norms' reset back to ones and zeros.
import torch
import torch.nn as nn

torch.manual_seed(11)
emb = nn.Embedding(6, 4, padding_idx=0)
attn = nn.MultiheadAttention(embed_dim=4, num_heads=2, batch_first=True)
norm = nn.LayerNorm(4)
print(attn.embed_dim, attn.num_heads, attn.head_dim, attn.batch_first, attn.dropout,
      attn.kdim, attn.vdim, attn._qkv_same_embed_dim)
print(emb.num_embeddings, emb.embedding_dim, emb.padding_idx, emb.max_norm, emb.sparse)

tokens = torch.tensor([[1, 2, 3, 0], [4, 5, 0, 0]])
params = list(emb.parameters()) + list(attn.parameters()) + list(norm.parameters())
opt = torch.optim.Adam(params, lr=0.1)
for step in range(3):
    opt.zero_grad()
    h = emb(tokens)
    out, weights = attn(h, h, h, key_padding_mask=tokens == 0)
    loss = norm(out + h).pow(2).mean()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.5f}")
print(norm.weight)
print(emb.weight[0])

torch.manual_seed(5)
emb.reset_parameters()
attn._reset_parameters()
attn.out_proj.reset_parameters()
norm.reset_parameters()
print(emb.weight)
print(attn.in_proj_weight[:4])
print(attn.in_proj_bias)
print(attn.out_proj.bias)
print(norm.weight, norm.bias)
print([p._version for p in (emb.weight, attn.in_proj_weight, attn.in_proj_bias, norm.weight)])
h = emb(tokens)
out, weights = attn(h, h, h, key_padding_mask=tokens == 0)
print(weights)
