# A word-count vocabulary with collections.Counter, then a bag-of-words classifier trained on it.
from collections import Counter

import torch
import torch.nn as nn

sentences = [
    "good movie good acting",
    "bad plot bad acting",
    "good fun",
    "boring bad movie",
]
labels = torch.tensor([1.0, 0.0, 1.0, 0.0])
counts = Counter()
for s in sentences:
    counts.update(s.split())
print(counts)
print(counts.most_common(3), counts["missing"], counts.total())
vocab = {word: i for i, (word, _) in enumerate(counts.most_common())}
print(vocab)

def bag(sentence):
    v = torch.zeros(len(vocab))
    for word, n in Counter(sentence.split()).items():
        v[vocab[word]] = n
    return v

X = torch.stack([bag(s) for s in sentences])
print(X)
torch.manual_seed(0)
model = nn.Linear(len(vocab), 1)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(20):
    opt.zero_grad()
    loss = nn.functional.binary_cross_entropy_with_logits(model(X).squeeze(1), labels)
    loss.backward()
    opt.step()
print(round(loss.item(), 4))
print(model.weight.grad)
pos = Counter(sentences[0].split()) + Counter(sentences[2].split())
neg = Counter(sentences[1].split()) | Counter(sentences[3].split())
print(pos, neg, pos - neg, pos & Counter(good=1))
print(sorted(Counter("mississippi").elements()))
print(type(counts), isinstance(counts, dict))
