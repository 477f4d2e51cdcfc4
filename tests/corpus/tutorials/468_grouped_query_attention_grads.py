# Grouped-query attention: 4 query heads share 2 key/value heads; each shared head collects
# the gradients of its group.
import torch
import torch.nn.functional as F

torch.manual_seed(2)
q = torch.randn(2, 4, 6, 8, requires_grad=True)
k = torch.randn(2, 2, 7, 8, requires_grad=True)
v = torch.randn(2, 2, 7, 8, requires_grad=True)
out = F.scaled_dot_product_attention(q, k, v, enable_gqa=True, is_causal=False)
print(out.shape)
out.pow(2).sum().backward()
print(k.grad.shape, v.grad.shape)
print(k.grad[0, 1])
print(v.grad[1, 0, :3])
print(q.grad[1, 3])
print(k.grad.sum().item(), v.grad.abs().sum().item(), q.grad.norm().item())
