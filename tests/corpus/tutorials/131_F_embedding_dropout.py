import torch
import torch.nn as nn
import torch.nn.functional as F

weight = torch.tensor([[0.0, 0.1], [1.0, 1.1], [2.0, 2.1], [3.0, 3.1]], requires_grad=True)
idx = torch.tensor([[0, 2], [2, 3]])
e = F.embedding(idx, weight)
print(e)
e.sum().backward()
print(weight.grad)

torch.manual_seed(0)
emb = nn.Embedding(5, 3)
print(emb.weight)
print(emb(torch.tensor([4, 0])))

x = torch.ones(2, 8)
torch.manual_seed(1)
print(F.dropout(x, p=0.5, training=True))
print(F.dropout(x, p=0.5, training=False))
drop = nn.Dropout(p=0.25)
print(drop(x))
drop.eval()
print(drop(x))
