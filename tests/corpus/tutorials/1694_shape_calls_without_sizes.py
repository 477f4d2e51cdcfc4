# Shape methods called without their sizes: PyTorch's TypeErrors, even for a 0-d tensor.
import torch

x = torch.arange(6.0).reshape(2, 3)
s = torch.tensor(5.0)
calls = {
    "x.permute()": lambda: x.permute(),
    "torch.permute(x)": lambda: torch.permute(x),
    "s.permute()": lambda: s.permute(),
    "x.view()": lambda: x.view(),
    "s.reshape()": lambda: s.reshape(),
    "torch.reshape(x)": lambda: torch.reshape(x),
    "x.expand()": lambda: x.expand(),
    "s.flip()": lambda: s.flip(),
    "x.tile()": lambda: x.tile(),
    "x.broadcast_to()": lambda: x.broadcast_to(),
    "x.new_zeros()": lambda: x.new_zeros(),
    "x.new_ones()": lambda: x.new_ones(),
    "torch.full_like(x)": lambda: torch.full_like(x),
    "x.sum_to_size()": lambda: x.sum_to_size(),
}
for text, call in calls.items():
    try:
        print(text, call())
    except TypeError as e:
        print(text, "->", e)

print(s.permute(()), s.view(()), x.flip([]), x.new_zeros(()))
