import torch
import torch.nn as nn
from torch.utils.data import DataLoader

# A tiny sentiment set: each sample is (word, features, label).
samples = [
    ("good", torch.tensor([1.0, 0.2]), 1),
    ("bad", torch.tensor([-0.8, 0.1]), 0),
    ("great", torch.tensor([0.9, 0.4]), 1),
    ("awful", torch.tensor([-1.0, -0.3]), 0),
]
loader = DataLoader(samples, batch_size=2, shuffle=False)

model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.25]]))
    model.bias.fill_(0.125)
loss_fn = nn.BCEWithLogitsLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.5)

for epoch in range(2):
    for words, feats, labels in loader:
        if epoch == 0:
            print(words, type(words).__name__, labels)
        opt.zero_grad()
        loss = loss_fn(model(feats).squeeze(1), labels.float())
        loss.backward()
        opt.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")

# strings in a list-shaped sample are collated the same way, into a tuple per field
print(next(iter(DataLoader([["up", 1], ["down", 2]], batch_size=2))))
