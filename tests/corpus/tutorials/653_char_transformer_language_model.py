# A character-level language model in the style of PyTorch's "Language Modeling with
# nn.Transformer" tutorial: sinusoidal positional encoding, a causal TransformerEncoder,
# teacher forcing with cross entropy, then greedy generation.
import math
import torch
import torch.nn as nn

torch.manual_seed(1)

text = "hello world, hello attention. "
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
vocab = len(chars)
print(vocab, data[:10])


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=64):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        x = x + self.pe[: x.size(0)]
        return self.dropout(x)


class CharModel(nn.Module):
    def __init__(self, ntoken, d_model=16, nhead=2, d_hid=32, nlayers=1, dropout=0.1):
        super().__init__()
        self.pos_encoder = PositionalEncoding(d_model, dropout)
        layers = nn.TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
        self.transformer_encoder = nn.TransformerEncoder(layers, nlayers)
        self.embedding = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.linear = nn.Linear(d_model, ntoken)

    def forward(self, src, src_mask=None):
        src = self.embedding(src) * math.sqrt(self.d_model)
        src = self.pos_encoder(src)
        output = self.transformer_encoder(src, src_mask)
        return self.linear(output)


model = CharModel(vocab)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
bptt = 8


def get_batch(i):
    seq_len = min(bptt, len(data) - 1 - i)
    return data[i:i + seq_len].unsqueeze(1), data[i + 1:i + 1 + seq_len]


for epoch in range(4):
    model.train()
    total = 0.0
    for i in range(0, len(data) - 1, bptt):
        inp, target = get_batch(i)
        mask = nn.Transformer.generate_square_subsequent_mask(inp.size(0))
        out = model(inp, mask)
        loss = criterion(out.view(-1, vocab), target)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch} loss {total:.4f}")

model.eval()
ctx = data[:4].tolist()
with torch.no_grad():
    for _ in range(6):
        inp = torch.tensor(ctx[-bptt:]).unsqueeze(1)
        mask = nn.Transformer.generate_square_subsequent_mask(inp.size(0))
        logits = model(inp, mask)
        ctx.append(int(logits[-1, 0].argmax()))
print("".join(itos[i] for i in ctx))
print(logits[-1, 0, :5])
