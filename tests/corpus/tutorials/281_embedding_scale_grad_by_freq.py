# Word embeddings whose gradient is scaled by how often each word occurs in the batch
# (scale_grad_by_freq=True), so frequent words do not dominate the update.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
vocab, dim = 6, 4
emb = nn.Embedding(vocab, dim, scale_grad_by_freq=True, padding_idx=0)
print(emb)
sentences = torch.tensor([[1, 2, 2, 0], [3, 2, 1, 0], [5, 5, 5, 2]])
target = torch.randn(3, 4, dim)
opt = torch.optim.SGD(emb.parameters(), lr=0.5)
for step in range(3):
    opt.zero_grad()
    loss = F.mse_loss(emb(sentences), target)
    loss.backward()
    print(step, loss.item())
    print(emb.weight.grad)
    opt.step()

# the functional form, against the plain one
w = torch.randn(4, 3, requires_grad=True)
idx = torch.tensor([3, 3, 1, 3])
F.embedding(idx, w, scale_grad_by_freq=True).sum().backward()
print(w.grad)
w.grad = None
F.embedding(idx, w).sum().backward()
print(w.grad)
