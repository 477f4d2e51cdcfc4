# functional_call also swaps a plain tensor attribute (one that is neither a parameter nor a
# buffer) for the call, and sets a name the module does not have; PyTorch's errors for a
# path through a non-module or a name that holds no tensor.
import torch
import torch.nn as nn
from torch.func import functional_call, grad


class Gated(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 2)
        self.gate = torch.tensor([1.0, 0.0])  # a plain attribute, not registered
        self.scale = 0.5

    def forward(self, x):
        out = self.proj(x) * self.gate
        if hasattr(self, "offset"):
            out = out + self.offset
        return out * self.scale


torch.manual_seed(11)
net = Gated()
x = torch.tensor([[1.0, -2.0, 0.5]])
print(net(x))
print(functional_call(net, {"gate": torch.tensor([0.0, 1.0])}, x))
print(net.gate)  # restored
print(functional_call(net, {"offset": torch.tensor([10.0, 20.0])}, x))
print(hasattr(net, "offset"))  # removed again
print(functional_call(net, {"proj.bias": None}, x))
print(net.proj.bias is not None)


def gate_loss(gate):
    return functional_call(net, {"gate": gate}, x).pow(2).sum()


print(grad(gate_loss)(torch.tensor([0.3, -0.7])))

for key in ("scale", "training", "proj.in_features", "missing.weight", "proj.weight.row"):
    try:
        functional_call(net, {key: torch.ones(2)}, x)
    except (TypeError, AttributeError) as err:
        print(type(err).__name__, str(err).splitlines()[0])
print(net.gate, net.scale, net.training)
