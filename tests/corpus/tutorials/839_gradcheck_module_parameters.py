# gradcheck of a layer with its parameters passed as inputs too: the function reaches them
# through the module, and gradcheck moves each element in the tensor itself, so the module
# sees every step (the finite differences of the weights are not zero).
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)

layer = nn.Linear(3, 2)
x = torch.randn(4, 3, requires_grad=True)


def fn(x, *params):
    return torch.tanh(layer(x))


print(torch.autograd.gradcheck(fn, (x,) + tuple(layer.parameters())))
print(torch.autograd.gradgradcheck(fn, (x,) + tuple(layer.parameters())))
print(layer.weight)  # put back as it was

cell = nn.GRUCell(2, 3)
h = torch.randn(2, 3, requires_grad=True)
inp = torch.randn(2, 2, requires_grad=True)
print(torch.autograd.gradcheck(lambda a, b, *p: cell(a, b), (inp, h) + tuple(cell.parameters())))
