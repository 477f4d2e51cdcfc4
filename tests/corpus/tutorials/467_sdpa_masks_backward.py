# A padding mask (bool) and an additive bias mask (float) on attention, and the gradients
# they let through.
import torch
import torch.nn.functional as F

torch.manual_seed(1)
B, H, L, S, E = 2, 2, 5, 6, 8
q = torch.randn(B, H, L, E, requires_grad=True)
k = torch.randn(B, H, S, E, requires_grad=True)
v = torch.randn(B, H, S, E, requires_grad=True)

# keys 4 and 5 of the second sequence are padding
keep = torch.ones(B, 1, 1, S, dtype=torch.bool)
keep[1, :, :, 4:] = False
out = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
loss = (out ** 2).mean()
loss.backward()
print(f"loss = {loss.item():.6f}")
print(k.grad[1, 0])
print(v.grad[1, 1, 3:])
print(q.grad.sum(dim=-1))

for t in (q, k, v):
    t.grad = None
bias = torch.randn(L, S) * 0.5
out = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
out.backward(torch.randn_like(out))
print(q.grad[0, 0])
print(k.grad.norm(), v.grad.norm())
print(q.grad.sum().item(), k.grad.sum().item(), v.grad.sum().item())
