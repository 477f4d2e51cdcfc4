# A residual block that builds its shortcut projection and drops it (sets it to None) when
# the shapes already match: the dropped layer's weights must leave the parameters and the
# state_dict, so the optimizer sees only what the forward pass uses.
import torch
import torch.nn as nn


class Residual(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.body = nn.Linear(c_in, c_out)
        self.shortcut = nn.Linear(c_in, c_out, bias=False)
        if c_in == c_out:
            self.shortcut = None

    def forward(self, x):
        skip = x if self.shortcut is None else self.shortcut(x)
        return torch.relu(self.body(x)) + skip


for c_in, c_out in ((4, 4), (4, 6)):
    block = Residual(c_in, c_out)
    print(c_in, c_out, sum(p.numel() for p in block.parameters()))
    print(list(block.state_dict().keys()), block.shortcut is None)
    print([name for name, _ in block.named_children()])

try:
    block.shortcut = "identity"
except TypeError as err:
    print("TypeError:", err)

holder = nn.Module()
holder.add_module("head", nn.Linear(2, 2))
holder.add_module("head", None)
holder.register_module("tail", None)
print(holder.head, holder.tail, len(list(holder.parameters())), list(holder.state_dict()))
