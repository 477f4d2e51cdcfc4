# A tiny transformer classifier on synthetic sequences: the label says whether the sum of the
# first feature over the sequence is positive. Embedding by a linear layer, a learned
# position embedding, two encoder layers, mean pooling, a linear head; Adam.
import torch
import torch.nn as nn

torch.manual_seed(0)

seq_len, n_feat, d_model = 6, 3, 16
X = torch.randn(32, seq_len, n_feat)
y = (X[:, :, 0].sum(dim=1) > 0).long()


class TinyTransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(n_feat, d_model)
        self.pos = nn.Parameter(torch.zeros(1, seq_len, d_model))
        layer = nn.TransformerEncoderLayer(
            d_model=d_model, nhead=4, dim_feedforward=32, dropout=0.1, batch_first=True
        )
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)
        self.head = nn.Linear(d_model, 2)

    def forward(self, x):
        h = self.embed(x) + self.pos
        h = self.encoder(h)
        return self.head(h.mean(dim=1))


model = TinyTransformer()
print(model)
print(sum(p.numel() for p in model.parameters()))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.CrossEntropyLoss()

for epoch in range(12):
    model.train()
    perm = torch.randperm(32)
    total = 0.0
    for i in range(0, 32, 16):
        idx = perm[i:i + 16]
        opt.zero_grad()
        loss = loss_fn(model(X[idx]), y[idx])
        loss.backward()
        opt.step()
        total += loss.item()
    if epoch % 3 == 0:
        print(f"epoch {epoch:2d} loss {total / 2:.4f}")

model.eval()
with torch.no_grad():
    logits = model(X)
    acc = (logits.argmax(dim=1) == y).float().mean()
print(f"train accuracy {acc:.3f}")
print(logits[:3])
