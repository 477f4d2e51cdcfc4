import torch
import torch.nn.functional as F

torch.manual_seed(5)
q = torch.randn(2, 2, 3, 4, dtype=torch.float64, requires_grad=True)
k = torch.randn(2, 2, 5, 4, dtype=torch.float64, requires_grad=True)
v = torch.randn(2, 2, 5, 4, dtype=torch.float64, requires_grad=True)
m = torch.randn(3, 5, dtype=torch.float64)
o1 = F.scaled_dot_product_attention(q, k, v, attn_mask=m)
o2 = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.7)
o3 = F.scaled_dot_product_attention(q[0], k[0], v[0], attn_mask=m > 0)
o4 = F.scaled_dot_product_attention(q, k[:, :1], v[:, :1], enable_gqa=True)
o5 = F.scaled_dot_product_attention(q, k, v, dropout_p=0.4)
print(o1.grad_fn.name(), o2.grad_fn.name(), o3.grad_fn.name(), o4.grad_fn.name(), o5.grad_fn.name())
loss = (o1 * o1).sum() + o2.sum() + (o3**3).sum() + (o4 * o2).sum() + (o5 * o1).sum()
loss.backward()
for t in (o1, o2, o3, o4, o5, q.grad, k.grad, v.grad):
    print(t.tolist())
