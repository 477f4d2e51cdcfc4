# A class body may copy module-level helpers into class attributes under the same name
# (`activation = activation`): the right-hand side is the module's value, as in Python.
import torch
import torch.nn as nn


def activation(self, t):
    return torch.tanh(t) * self.gain


gain = 2.0
hidden = 3


class Scaled(nn.Module):
    activation = activation
    gain = gain
    hidden = hidden * 2

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, self.hidden)

    def forward(self, x):
        return self.activation(self.lin(x)).sum()


torch.manual_seed(0)
model = Scaled()
x = torch.tensor([[0.5, -1.0]])
out = model(x)
out.backward()
print(Scaled.gain, Scaled.hidden, round(out.item(), 4))
print(model.lin.weight.grad.shape)


def make_class(step):
    step = step * 10  # a local of the function: the class body below still reads the module's

    class Counter:
        hidden = hidden + 1

    return Counter, step


cls, step = make_class(1)
print(cls.hidden, step)

try:

    class Broken:
        undefined_thing = undefined_thing
except NameError as err:
    print("NameError:", err)
