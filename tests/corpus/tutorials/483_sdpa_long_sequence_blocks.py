# A longer sequence (70 queries, 40 keys): gradients of every query row, summarised.
import torch
import torch.nn.functional as F

torch.manual_seed(8)
q = torch.randn(1, 3, 70, 24, requires_grad=True)
k = torch.randn(1, 3, 40, 24, requires_grad=True)
v = torch.randn(1, 3, 40, 24, requires_grad=True)
mask = torch.randn(70, 40)
out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
out.backward(torch.ones_like(out) / out.numel())
print(q.grad[0, 0, 30:35, :4])
print(q.grad[0, 2, -3:, -4:])
print(k.grad[0, 1, :2])
print(v.grad.sum(dim=(0, 1, 3)))
