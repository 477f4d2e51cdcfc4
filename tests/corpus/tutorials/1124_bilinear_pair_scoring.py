# Scoring pairs with nn.Bilinear (a bilinear form between a user vector and an item vector,
# as in simple relation / link-prediction models): the scores, and the gradients that reach
# both embeddings, the weight tensor and the bias after a margin loss; then one Adam step.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(4)
users = nn.Embedding(10, 6)
items = nn.Embedding(12, 5)
scorer = nn.Bilinear(6, 5, 3)

u_idx = torch.tensor([0, 3, 3, 7, 9, 1, 4, 4])
i_idx = torch.tensor([2, 5, 11, 0, 7, 7, 3, 8])
u = users(u_idx)
v = items(i_idx)
scores = scorer(u, v)
print(scores.shape, scores.grad_fn.name())
print(scores.tolist())

labels = torch.tensor([0, 2, 1, 1, 0, 2, 2, 1])
loss = F.cross_entropy(scores, labels)
loss.backward()
print("loss:", loss.item())
print("user grad rows:", users.weight.grad[[0, 3, 7]].tolist())
print("item grad rows:", items.weight.grad[[2, 7]].tolist())
print("W grad:", scorer.weight.grad[0].tolist())
print("b grad:", scorer.bias.grad.tolist())

opt = torch.optim.Adam(list(scorer.parameters()) + list(users.parameters()), lr=0.01)
opt.step()
print(scorer.weight[1, 0].tolist())

seq = torch.randn(2, 4, 6, requires_grad=True)
ctx = torch.randn(2, 4, 5)
out = F.bilinear(seq, ctx, scorer.weight.detach())
out.pow(2).mean().backward()
print(out.shape, seq.grad[1].tolist())
