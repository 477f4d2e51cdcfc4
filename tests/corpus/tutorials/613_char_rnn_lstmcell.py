# Char-RNN: learn to continue "hello world" one character at a time with an LSTMCell
import torch
import torch.nn as nn

torch.manual_seed(7)
text = "hello world"
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
print("vocab:", "".join(chars), len(chars))

data = torch.tensor([stoi[c] for c in text])
inputs, targets = data[:-1], data[1:]


class CharRNN(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.hidden = hidden
        self.embed = nn.Embedding(vocab, 6)
        self.cell = nn.LSTMCell(6, hidden)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, seq, state=None):
        if state is None:
            state = (torch.zeros(1, self.hidden), torch.zeros(1, self.hidden))
        logits = []
        for idx in seq:
            h, c = self.cell(self.embed(idx.view(1)), state)
            state = (h, c)
            logits.append(self.head(h))
        return torch.cat(logits), state


model = CharRNN(len(chars), 12)
print(model)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
loss_fn = nn.CrossEntropyLoss()

for it in range(30):
    opt.zero_grad()
    logits, _ = model(inputs)
    loss = loss_fn(logits, targets)
    loss.backward()
    opt.step()
    if it % 5 == 0:
        print(f"iter {it:2d} loss {loss.item():.3f}")

# greedy sampling from "h"
with torch.no_grad():
    idx = torch.tensor([stoi["h"]])
    state = None
    out = "h"
    for _ in range(len(text) - 1):
        logits, state = model(idx, state)
        idx = logits.argmax(dim=1)
        out += itos[idx.item()]
print("sample:", out)
