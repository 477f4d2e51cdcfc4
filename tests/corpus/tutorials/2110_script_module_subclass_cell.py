# A recurrent cell written the way TorchScript's older API wants it: a subclass of
# torch.jit.ScriptModule whose forward is marked @torch.jit.script_method, constants named in
# __constants__, and an empty list typed with torch.jit.annotate. Its submodules become
# TorchScript's modules after __init__ (they print as RecursiveScriptModule), and the cell
# trains like any module.
import torch
import torch.nn as nn
from torch import Tensor
from typing import List


class TinyCell(torch.jit.ScriptModule):
    __constants__ = ["steps"]

    def __init__(self, features):
        super(TinyCell, self).__init__()
        self.steps = 3
        self.mix = nn.Linear(2 * features, features)
        self.gate = nn.Parameter(torch.full((features,), 0.5))

    @torch.jit.script_method
    def forward(self, x, h):
        # type: (Tensor, Tensor) -> Tensor
        states = torch.jit.annotate(List[Tensor], [])  # noqa: UP006
        for _ in range(self.steps):
            candidate = torch.tanh(self.mix(torch.cat([x, h], dim=1)))
            h = self.gate * h + (1 - self.gate) * candidate
            states += [h]
        return torch.stack(states)

    @torch.jit.ignore
    def describe(self):
        return f"{self.steps} steps over {self.gate.numel()} features"


class Readout(TinyCell):
    def __init__(self, features):
        super(Readout, self).__init__(features)
        self.head = nn.Sequential(nn.Linear(features, 1), nn.Sigmoid())

    @torch.jit.script_method
    def score(self, x, h):
        # type: (Tensor, Tensor) -> Tensor
        return self.head(self.forward(x, h)[-1])


torch.manual_seed(0)
model = Readout(2).double()
print(model)
print(model.describe(), "| original_name:", model.original_name)
print(isinstance(model, torch.jit.ScriptModule), isinstance(model, TinyCell))
print(isinstance(model.mix, torch.jit.ScriptModule), isinstance(model.mix, nn.Linear))
print(type(model).__name__, type(model.head).__name__)
print([name for name, _ in model.named_parameters()])

x = torch.tensor([[0.5, -1.0], [1.5, 0.25]], dtype=torch.float64)
h = torch.zeros(2, 2, dtype=torch.float64)
target = torch.tensor([[1.0], [0.0]], dtype=torch.float64)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for step in range(4):
    opt.zero_grad()
    loss = nn.functional.binary_cross_entropy(model.score(x, h), target)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}")
print(model.gate.grad)
print(model.mix.weight.grad.shape, model(x, h).shape)
