# nn.ModuleList (layers built in a loop, iterated in forward) and nn.ModuleDict (a choice
# of activation by name); their parameters are registered, their repr nested.
import torch
from torch import nn


class MyModule(nn.Module):
    def __init__(self, sizes, act="relu"):
        super().__init__()
        self.linears = nn.ModuleList([nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])])
        self.activations = nn.ModuleDict({"relu": nn.ReLU(), "tanh": nn.Tanh()})
        self.act = act

    def forward(self, x):
        for i, l in enumerate(self.linears):
            x = l(x)
            if i < len(self.linears) - 1:
                x = self.activations[self.act](x)
        return x


torch.manual_seed(6)
model = MyModule([3, 5, 4, 2])
print(model)
print(len(model.linears), list(model.activations.keys()))
x = torch.randn(2, 3)
print(model(x))
model.act = "tanh"
print(model(x))
print([name for name, _ in model.named_parameters()])
model.linears.append(nn.Linear(2, 2))
print(len(list(model.parameters())))
print(model.linears[-1])
print("tanh" in model.activations)
