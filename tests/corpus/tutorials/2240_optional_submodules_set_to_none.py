# Optional parts of a model: a residual block whose shortcut projection may be absent,
# and a head that is switched off later by assigning None to it.
import copy

import torch
import torch.nn as nn

torch.manual_seed(7)


class ResidualBlock(nn.Module):
    def __init__(self, c_in, c_out, use_norm=False):
        super().__init__()
        self.fc1 = nn.Linear(c_in, c_out)
        self.fc2 = nn.Linear(c_out, c_out)
        # the shortcut only needs a projection when the widths differ
        self.proj = nn.Linear(c_in, c_out, bias=False) if c_in != c_out else None
        self.register_module("norm", nn.LayerNorm(c_out) if use_norm else None)

    def forward(self, x):
        h = self.fc2(torch.relu(self.fc1(x)))
        if self.norm is not None:
            h = self.norm(h)
        shortcut = x if self.proj is None else self.proj(x)
        return torch.relu(h + shortcut)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block1 = ResidualBlock(3, 4)
        self.block2 = ResidualBlock(4, 4, use_norm=True)
        self.head = nn.Linear(4, 1)
        self.add_module("aux_head", None)

    def forward(self, x):
        return self.head(self.block2(self.block1(x)))


net = Net()
print(net)
print("keys:", list(net.block2._modules))
print("children:", [name for name, _ in net.named_children()])
print("modules:", [name for name, _ in net.named_modules()])
print("params:", sum(p.numel() for p in net.parameters()))

x = torch.randn(5, 3, dtype=torch.float64)
net.double()
loss = net(x).pow(2).mean()
loss.backward()
print(f"loss {loss.item():.6f}")
print("grad norms:", [round(p.grad.norm().item(), 5) for p in net.block1.parameters()])

# switch the normalisation of block2 off: its parameters leave the model
before = len(net.state_dict())
net.block2.norm = None
print(net.block2)
print("state entries:", before, "->", len(net.state_dict()))
print("norm is", net.block2.norm, "| hasattr:", hasattr(net.block2, "norm"))

# the key stays taken: it is still an attribute of the module
try:
    net.block2.register_buffer("norm", torch.zeros(4))
except KeyError as e:
    print("KeyError:", e)
try:
    net.block2.norm = torch.ones(4)
except TypeError as e:
    print("TypeError:", e)

# walks over the submodules pass the None entries by
net.zero_grad()
net.eval()
print("training:", [m.training for m in net.modules()])
net.apply(lambda m: print("visit", type(m).__name__) if not list(m.children()) else None)
net.requires_grad_(False)
print("trainable:", sum(p.requires_grad for p in net.parameters()))

clone = copy.deepcopy(net)
print(clone.block1)
result = clone.load_state_dict(net.state_dict())
print(result)
with torch.no_grad():
    print(torch.allclose(clone(x), net(x)))

# put a real module back where None was
net.block2.norm = nn.LayerNorm(4, dtype=torch.float64)
print([name for name, _ in net.block2.named_parameters()])
del net.block2.norm
print(list(net.block2._modules))

# containers hold None too: a stage of a pipeline dropped by index
pipe = nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 1))
pipe[1] = None
print(pipe)
try:
    pipe(torch.ones(1, 2))
except TypeError as e:
    print("TypeError:", e)
stages = nn.ModuleList([nn.ReLU(), None, None])
print(stages, len(stages), [m is None for m in stages])
