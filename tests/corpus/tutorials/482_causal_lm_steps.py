# A one-layer causal language model on a toy sequence: embedding, causal attention with a
# residual, a linear head, cross-entropy, SGD with momentum.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)
vocab, dim, heads = 11, 16, 2
emb = nn.Embedding(vocab, dim)
qkv = nn.Linear(dim, 3 * dim, bias=False)
head = nn.Linear(dim, vocab)
params = list(emb.parameters()) + list(qkv.parameters()) + list(head.parameters())
opt = torch.optim.SGD(params, lr=0.1, momentum=0.9)

tokens = torch.tensor([[1, 4, 2, 7, 3, 9, 5, 0, 6, 8, 10, 2]])
inp, tgt = tokens[:, :-1], tokens[:, 1:]
for step in range(6):
    x = emb(inp)
    b, n, d = x.shape
    q, k, v = qkv(x).split(dim, dim=-1)
    q, k, v = (t.view(b, n, heads, d // heads).transpose(1, 2) for t in (q, k, v))
    a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    x = x + a.transpose(1, 2).reshape(b, n, d)
    logits = head(x)
    loss = F.cross_entropy(logits.view(-1, vocab), tgt.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item()}  |grad qkv| {qkv.weight.grad.norm().item()}")
print(emb.weight.grad[tokens[0, :4]])
