# A hand-made Sequential keeps its blocks by writing the module table directly, as the
# "layers and blocks" chapter of a textbook does; a block is later taken out again.
import torch
from torch import nn


class Chain(nn.Module):
    def __init__(self, *blocks):
        super().__init__()
        for i, block in enumerate(blocks):
            self._modules[str(i)] = block

    def forward(self, x):
        for block in self._modules.values():
            x = block(x)
        return x


torch.manual_seed(3)
chain = Chain(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
x = torch.arange(8.0).reshape(2, 4) / 8
out = chain(x)
print(chain)
print(out)
out.sum().backward()
print([name for name, _ in chain.named_parameters()])
print(chain._modules["2"].bias.grad)
del chain._modules["1"]
print(chain, len(list(chain.parameters())))
try:
    del chain._modules["1"]
except KeyError as err:
    print("KeyError:", err)
