# Padded batches whose lengths live in a NumPy array (`seq_lengths.cpu().numpy()` in RNN
# tutorials), and NumPy scalars handed to torch where a number is expected.
import numpy as np
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

torch.manual_seed(0)
vocab, emb_dim, hidden = 10, 4, 3
seqs = [[1, 4, 2, 7], [3, 9], [5, 6, 8]]
seq_lengths = torch.LongTensor([len(s) for s in seqs])
padded = torch.zeros(len(seqs), int(seq_lengths.max()), dtype=torch.long)
for i, s in enumerate(seqs):
    padded[i, : len(s)] = torch.tensor(s)

seq_lengths, order = seq_lengths.sort(0, descending=True)
padded = padded[order]
print(seq_lengths.cpu().numpy(), padded.tolist())

embed = nn.Embedding(vocab, emb_dim).double()
lstm = nn.LSTM(emb_dim, hidden, batch_first=True).double()
packed = pack_padded_sequence(embed(padded), seq_lengths.cpu().numpy(), batch_first=True)
print(packed.batch_sizes, packed.data.shape)
out, (h, c) = lstm(packed)
unpacked, lens = pad_packed_sequence(out, batch_first=True)
print(unpacked.shape, lens)
print(torch.round(h[0], decimals=4))

# unsorted NumPy lengths, float lengths, NumPy integer elements
lengths_np = np.array([2, 4, 3])
p = pack_padded_sequence(embed(padded), lengths_np, batch_first=True, enforce_sorted=False)
print(p.batch_sizes, p.sorted_indices, p.unsorted_indices)
print(pack_padded_sequence(padded, np.array([4.0, 3.0, 2.0]), batch_first=True).batch_sizes)
print(pack_padded_sequence(padded, list(np.array([4, 2, 1])), batch_first=True).data)

# NumPy scalars where torch wants a number
scale = np.float32(0.5)
steps = np.int64(3)
print(torch.full((2, 2), scale), torch.full((steps,), steps))
print(torch.scalar_tensor(np.int32(7)), torch.scalar_tensor(np.float16(0.25)))
print(torch.pow(torch.tensor([1.0, 4.0, 9.0]), scale), torch.pow(torch.arange(3), steps))
print(nn.Dropout(p=np.float32(0.25)), nn.Dropout(p=np.float64(0.0))(torch.ones(2)))
params = [nn.Parameter(torch.tensor([3.0, 4.0], dtype=torch.float64))]
(params[0] ** 2).sum().backward()
print(torch.nn.utils.clip_grad_norm_(params, max_norm=np.float32(1.0)), params[0].grad)
try:
    pack_padded_sequence(padded, np.array([[4, 3, 2]]), batch_first=True)
except RuntimeError as e:
    print("RuntimeError:", e)
