# Building a model step by step the way the nn docs show it: a Sequential grown with
# append/insert/extend, sliced (the keys stay), an Identity placeholder that ignores its
# arguments, an Embedding from pretrained vectors, and a per-pixel Softmax2d head.
import torch
import torch.nn as nn

torch.manual_seed(0)
body = nn.Sequential(nn.Linear(3, 4), nn.Tanh())
body.append(nn.Linear(4, 2))
body.insert(1, nn.Identity(54, unused_argument1=0.1))
body.extend([nn.ReLU()])
print(body)
print(body[2:])
print(len(body))
first = body.pop(1)
print(first, len(body))
x = torch.randn(5, 3)
out = body(x)
out.sum().backward()
print(out)
print(body[0].weight.grad)

vectors = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75], [0.0, 1.0, 1.0]])
emb = nn.Embedding.from_pretrained(vectors)
print(emb)
print(emb.weight.requires_grad)
words = torch.tensor([[2, 0], [1, 1]])
print(emb(words))
tuned = nn.Embedding.from_pretrained(vectors, freeze=False, padding_idx=0)
loss = tuned(torch.tensor([0, 2, 2])).pow(2).sum()
loss.backward()
print(tuned, tuned.weight.grad)

head = nn.Softmax2d()
print(head)
scores = torch.randn(1, 3, 2, 2, requires_grad=True)
probs = head(scores)
print(probs)
(probs[:, 0] * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
print(scores.grad)
