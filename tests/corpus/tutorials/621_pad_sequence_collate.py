# Variable-length sequences batched with pad_sequence in a collate function (as NLP
# tutorials do), a masked mean over the real time steps, and the gradient that reaches
# each original sequence.
import torch
from torch.nn.utils.rnn import pad_sequence

torch.manual_seed(0)
seqs = [torch.randn(n, 2, requires_grad=True) for n in (4, 2, 3)]


def collate(batch):
    lengths = torch.tensor([len(s) for s in batch])
    padded = pad_sequence(batch, batch_first=True, padding_value=0.0)
    return padded, lengths


padded, lengths = collate(seqs)
print(padded.shape, lengths)
print(padded)
mask = torch.arange(padded.size(1))[None, :] < lengths[:, None]
print(mask)
summed = (padded * mask.unsqueeze(-1)).sum(dim=1)
mean = summed / lengths.unsqueeze(-1)
print(mean)
w = torch.tensor([1.0, -2.0])
(mean @ w).sum().backward()
for s in seqs:
    print(s.grad)

time_major = pad_sequence(seqs, padding_value=-1.0)
print(time_major.shape, time_major[:, 1])
left = pad_sequence([torch.tensor([1, 2, 3]), torch.tensor([4])], batch_first=True, padding_side="left")
print(left)
