# Self-attention over a batch laid out (batch, sequence, features): nn.MultiheadAttention
# with batch_first=True transposes its input before the projections, so the packed
# in_proj weight sees a 3-D input that is not contiguous. One backward pass, then the
# gradients printed with every float32 digit, and the same through F.linear directly.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)
attn = nn.MultiheadAttention(embed_dim=8, num_heads=2, batch_first=True)
tokens = torch.randn(3, 6, 8)
out, weights = attn(tokens, tokens, tokens)
loss = out.pow(2).mean() + weights.var()
loss.backward()
print("loss", loss.item())
print("in_proj_weight.grad[0]", attn.in_proj_weight.grad[0].tolist())
print("in_proj_weight.grad[17]", attn.in_proj_weight.grad[17].tolist())
print("out_proj.weight.grad[2]", attn.out_proj.weight.grad[2].tolist())

w = torch.randn(5, 8, requires_grad=True)
y = F.linear(tokens.transpose(0, 1), w)
(y * torch.linspace(-1, 1, 5)).sum().backward()
print("w.grad[4]", w.grad[4].tolist())
