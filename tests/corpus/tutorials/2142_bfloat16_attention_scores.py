# Attention scores in bfloat16 on the CPU: batched products, einsum, and their gradients.
import torch
import torch.nn.functional as F

torch.manual_seed(3)
q = torch.randn(2, 6, 32).bfloat16().requires_grad_()
k = torch.randn(2, 6, 32).bfloat16().requires_grad_()
v = torch.randn(2, 6, 16).bfloat16()

scores = q @ k.transpose(-2, -1) / 32**0.5
print(scores.dtype, scores.shape)
print(scores[0, 0])
same = torch.einsum("bqd,bkd->bqk", q, k) / 32**0.5
print("einsum matches:", torch.equal(same, scores))
weights = F.softmax(scores.float(), dim=-1).bfloat16()
context = torch.bmm(weights, v)
print(context[1, 2, :8])
context.float().sum().backward()
print(q.grad[0, 0, :8])
print(k.grad[1, 5, :8])

proj = torch.randn(16, 8).bfloat16()
out = torch.einsum("bsd,de->bse", context.detach(), proj)
print(out[0, :2])
print(torch.baddbmm(torch.zeros(2, 6, 6).bfloat16(), q.detach(), k.detach().transpose(1, 2))[1, 3])
