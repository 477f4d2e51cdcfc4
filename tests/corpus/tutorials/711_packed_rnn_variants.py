# Packed batches through the other recurrent layers (a bidirectional tanh RNN, a two-layer
# relu RNN, a batch-first LSTM with a given state), and the mistakes people make with
# pack_padded_sequence, as the forum threads show them.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pack_sequence, pad_packed_sequence

torch.manual_seed(3)
x = torch.randn(4, 3, 2)  # (time, batch, features)
lengths = [4, 2, 3]

rnn = nn.RNN(2, 3, bidirectional=True)
packed = pack_padded_sequence(x, lengths, enforce_sorted=False)
out, h = rnn(packed)
padded, lens = pad_packed_sequence(out)
print(padded)
print(h, lens)
padded.sum().backward()
print(rnn.weight_ih_l0_reverse.grad)

relu_rnn = nn.RNN(2, 2, num_layers=2, nonlinearity="relu")
out, h = relu_rnn(pack_padded_sequence(x[:, :2], [4, 2]))
print(out.data)
print(h)

lstm = nn.LSTM(2, 3, batch_first=True)
xb = x.transpose(0, 1).contiguous().requires_grad_()
h0 = torch.randn(1, 3, 3)
c0 = torch.randn(1, 3, 3)
packed = pack_padded_sequence(xb, torch.tensor(lengths), batch_first=True, enforce_sorted=False)
out, (h, c) = lstm(packed, (h0, c0))
padded, lens = pad_packed_sequence(out, batch_first=True, padding_value=9.0)
print(padded[1])
print(h, c)
(padded[:, :, 0].sum() + c.sum()).backward()
print(xb.grad[1])

tests = [
    lambda: pack_padded_sequence(x, [4, 2, 3]),
    lambda: pack_padded_sequence(x, [4, 3, 0]),
    lambda: pack_padded_sequence(x, [4, 3]),
    lambda: pack_padded_sequence(x, torch.tensor([[4, 3, 2]])),
    lambda: pack_padded_sequence(torch.zeros(0, 3), [1, 1, 1]),
    lambda: pad_packed_sequence(x),
    lambda: pad_packed_sequence(pack_sequence([torch.ones(3), torch.ones(1)]), total_length=2),
    lambda: rnn(pack_padded_sequence(x, [4, 3, 2]), torch.zeros(2, 2, 3)),
    lambda: rnn(pack_padded_sequence(x.double(), [4, 3, 2])),
    lambda: rnn(pack_padded_sequence(x[:, :, :1], [4, 3, 2])),
    lambda: lstm(pack_padded_sequence(x[:, :, :1], [4, 3, 2])),
]
for t in tests:
    try:
        t()
    except (RuntimeError, ValueError, AttributeError) as e:
        print(type(e).__name__, "-", e)
