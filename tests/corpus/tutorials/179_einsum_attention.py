import torch
import torch.nn.functional as F

q = torch.tensor([[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]], requires_grad=True)   # (batch, seq, dim)
k = torch.tensor([[[1.0, 2.0], [0.5, -1.0], [0.0, 1.0]]])
v = torch.tensor([[[1.0, 0.0], [0.0, 2.0], [3.0, 1.0]]])
d = q.shape[-1]

scores = torch.einsum('bqd,bkd->bqk', q, k) / d ** 0.5
same = torch.bmm(q, k.transpose(1, 2)) / d ** 0.5
print(torch.allclose(scores, same))
attn = F.softmax(scores, dim=-1)
out = torch.einsum('bqk,bkd->bqd', attn, v)
print(attn)
print(out)
out.sum().backward()
print(q.grad)

bias = torch.zeros(1, 3, 3)
print(torch.baddbmm(bias, q.detach(), k.transpose(1, 2), alpha=0.5))
print(torch.tensordot(attn.detach()[0], v[0], dims=([1], [0])))
