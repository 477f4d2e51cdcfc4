# Variable-length sentences through an LSTM, the way the sequence-classification tutorials do
# it: pad, embed, pack with the true lengths (unsorted), run the LSTM on the packed batch,
# unpack, classify from the last hidden state, and train a few steps.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import (
    PackedSequence,
    pack_padded_sequence,
    pack_sequence,
    pad_packed_sequence,
    pad_sequence,
    unpack_sequence,
    unpad_sequence,
)

torch.manual_seed(0)

sentences = [torch.tensor([4, 2, 7]), torch.tensor([1, 5, 3, 8, 6]), torch.tensor([9, 2])]
labels = torch.tensor([1, 0, 1])
lengths = torch.tensor([len(s) for s in sentences])
padded = pad_sequence(sentences, batch_first=True, padding_value=0)
print(padded)
print(lengths)


class Classifier(nn.Module):
    def __init__(self, vocab, emb, hidden, classes):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, classes)

    def forward(self, x, lengths):
        embedded = self.embedding(x)
        packed = pack_padded_sequence(
            embedded, lengths.cpu(), batch_first=True, enforce_sorted=False
        )
        packed_out, (h_n, c_n) = self.lstm(packed)
        out, out_lengths = pad_packed_sequence(packed_out, batch_first=True)
        features = torch.cat([h_n[-2], h_n[-1]], dim=1)
        return self.fc(features), out, out_lengths


model = Classifier(10, 4, 3, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for step in range(3):
    optimizer.zero_grad()
    logits, out, out_lengths = model(padded, lengths)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.6f}")
print(out.shape, out_lengths)
print(out[2])
print(model.lstm.weight_hh_l0.grad[:2])

# What a packed batch looks like inside.
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed)
print(isinstance(packed, PackedSequence), type(packed))
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
data, batch_sizes, sorted_indices, unsorted_indices = packed
print(data.tolist())

# pack_sequence takes the tensors themselves; sorted longest first unless told otherwise.
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0], requires_grad=True)
c = torch.tensor([6.0], requires_grad=True)
seq = pack_sequence([a, b, c])
print(seq)
try:
    pack_sequence([b, a, c])
except RuntimeError as e:
    print("RuntimeError:", e)
seq2 = pack_sequence([b, a, c], enforce_sorted=False)
print(seq2.data, seq2.data.grad_fn.name())
unpacked = unpack_sequence(seq2)
print(unpacked)
padded2, lens2 = pad_packed_sequence(seq2, total_length=4, padding_value=-1.0)
print(padded2, lens2)
(padded2 * torch.arange(12.0).reshape(4, 3)).sum().backward()
print(a.grad, b.grad, c.grad)
print(unpad_sequence(padded2.detach(), lens2))

# A GRU over a packed batch of feature vectors, with an initial state per sequence.
gru = nn.GRU(2, 3, num_layers=2)
xs = [torch.randn(n, 2) for n in (2, 4, 1)]
h0 = torch.zeros(2, 3, 3, requires_grad=True)
out, h = gru(pack_sequence(xs, enforce_sorted=False), h0)
print(out.data.grad_fn.name(), h.grad_fn.name())
print(h)
h.sum().backward()
print(h0.grad)
try:
    pad_packed_sequence(out, total_length=2)
except ValueError as e:
    print("ValueError:", e)
