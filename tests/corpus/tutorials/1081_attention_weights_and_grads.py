# Scaled dot-product attention from scratch inputs: a tiny batch of queries, keys and values,
# the attended output and the gradients a training step would use.
import torch
import torch.nn.functional as F

torch.manual_seed(7)
batch, heads, seq_len, head_dim = 2, 2, 10, 16
q = torch.randn(batch, heads, seq_len, head_dim, requires_grad=True)
k = torch.randn(batch, heads, seq_len, head_dim, requires_grad=True)
v = torch.randn(batch, heads, seq_len, head_dim, requires_grad=True)

out = F.scaled_dot_product_attention(q, k, v)
print(out.shape)
print(out[0, 1, 3].tolist())

loss = out.pow(2).mean()
loss.backward()
print("loss", loss.item())
print("dq", q.grad[1, 0, 2].tolist())
print("dk", k.grad[0, 1, 9].tolist())
print("dv", v.grad[1, 1, 0].tolist())

# the causal version a language model uses
q.grad = k.grad = v.grad = None
causal = F.scaled_dot_product_attention(q, k, v, is_causal=True)
causal.sum().backward()
print(causal[1, 0, -1].tolist())
print(q.grad.abs().sum().item(), k.grad.abs().sum().item(), v.grad.abs().sum().item())
