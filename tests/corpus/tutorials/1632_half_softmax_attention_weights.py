# Mixed-precision habits: attention scores kept in float16 (or bfloat16) and normalised with
# softmax over the keys (last dim) or over a batch of queries (dim 0), then a backward pass.
import torch

torch.manual_seed(0)
q = torch.randn(5, 4)
k = torch.randn(11, 4)
scores = (q @ k.T / 2.0).half().requires_grad_()
attn = torch.softmax(scores, dim=-1)
print(attn)
print(attn.sum(dim=-1))
(attn * torch.arange(11).half()).sum().backward()
print(scores.grad)

cols = torch.randn(24, 19).half().requires_grad_()
w = torch.nn.functional.softmax(cols * 3, dim=0)
print(w[:3])
print(w.dtype, w.sum(0)[:5])
w.pow(2).sum().backward()
print(cols.grad[:2])

logits = torch.randn(3, 37).bfloat16().requires_grad_()
p = logits.softmax(-1)
print(p.max(dim=-1))
loss = -(p[:, 0] + 1e-3).log().mean()
loss.backward()
print(loss, logits.grad[:, :6])
lp = torch.log_softmax(logits.float(), 0).bfloat16()
print(lp[:, :4])
