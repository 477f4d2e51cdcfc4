# A GRU text-style classifier on random token sequences
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(42)

vocab_size, embed_dim, hidden_dim, num_classes = 20, 8, 10, 3
batch, seq_len = 6, 7


class GRUClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.gru = nn.GRU(embed_dim, hidden_dim, num_layers=2, batch_first=True,
                          dropout=0.2, bidirectional=True)
        self.fc = nn.Linear(2 * hidden_dim, num_classes)

    def forward(self, tokens):
        emb = self.embedding(tokens)
        output, hidden = self.gru(emb)
        # concatenate the last layer's forward and backward final states
        h = torch.cat((hidden[-2], hidden[-1]), dim=1)
        return self.fc(h)


model = GRUClassifier()
print(model)
for name, p in model.named_parameters():
    if "gru" in name:
        print(f"{name:28s} {tuple(p.shape)}")

tokens = torch.randint(0, vocab_size, (batch, seq_len))
labels = torch.randint(0, num_classes, (batch,))
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)

for step in range(5):
    model.train()
    optimizer.zero_grad()
    logits = model(tokens)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss = {loss.item():.4f}")

model.eval()
with torch.no_grad():
    out, h = model.gru(model.embedding(tokens))
    print(out.shape, h.shape)
    preds = model(tokens).argmax(dim=1)
print("predictions:", preds.tolist())
print("labels:     ", labels.tolist())
print("accuracy:", (preds == labels).float().mean().item())
