# Building a PackedSequence by hand, and the errors of calls that do not fit its signature.
import torch
from torch.nn.utils.rnn import PackedSequence, pad_packed_sequence

data = torch.tensor([1.0, 4.0, 2.0, 5.0, 3.0])
packed = PackedSequence(data, torch.tensor([2, 2, 1]))
print(packed)
padded, lengths = pad_packed_sequence(packed, batch_first=True)
print(padded, lengths)

for args, kwargs in [
    ((), {}),
    ((), {"batch_sizes": torch.tensor([1])}),
    ((data, torch.tensor([5]), None, None, None), {}),
    ((data,), {"lengths": [5]}),
    ((data, torch.tensor([5])), {"data": data}),
    ((data,), {}),
]:
    try:
        PackedSequence(*args, **kwargs)
    except (TypeError, AssertionError) as e:
        print(type(e).__name__ + ":", e)
