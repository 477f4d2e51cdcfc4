# Old tutorials wrap tensors in Variable and check for it before calling .data.
import torch
from torch.autograd import Variable


def to_value(x):
    if isinstance(x, Variable):
        return x.data
    return torch.tensor(x)


w = Variable(torch.tensor([1.0, -2.0]), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
print(to_value(w), to_value(b), to_value([3.0]))
print(isinstance(w, Variable), isinstance(2.5, Variable), isinstance(torch.nn.Parameter(b), Variable))
print(isinstance(w, (Variable, list)), type(w).__name__)
