# A module whose forward needs no state can be a @staticmethod; hooks still run around it.
# register_backward_hook (the older, deprecated form) attaches to the last operation of
# the forward: grad_input are the gradients of that operation's inputs.
import torch
import torch.nn as nn


class Adder(nn.Module):
    @staticmethod
    def forward(a, b, c):
        return a + b + c


class ScaledProduct(nn.Module):
    @staticmethod
    def forward(a, b):
        return (a * b) * 2


def shift_first(module, args):
    first, *rest = args
    return (first + 100, *rest)


def report(module, grad_input, grad_output):
    print(type(module).__name__, "grad_input:", grad_input, "grad_output:", grad_output)


adder = Adder()
x = torch.tensor(1.0, requires_grad=True)
y = torch.tensor(2.0, requires_grad=True)
z = torch.tensor(3.0, requires_grad=True)
handle = adder.register_forward_pre_hook(shift_first)
print("with pre-hook:", adder(x, y, c=z))
handle.remove()
print("without:", adder(x, y, c=z))

prod = ScaledProduct()
h = prod.register_backward_hook(report)
out = prod(x, y)
print("out:", out)
out.backward()
print("x.grad:", x.grad, "y.grad:", y.grad)
h.remove()
x.grad = None
prod(x, y).backward()
print("hook removed, x.grad:", x.grad)

# A hook that returns new gradients replaces those of the last operation's inputs.
lin = nn.Linear(2, 1, bias=False)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, -1.0]]))
lin.register_backward_hook(lambda m, gi, go: tuple(None if g is None else g * 3 for g in gi))
inp = torch.tensor([[2.0, 3.0]], requires_grad=True)
lin(inp).sum().backward()
print("tripled by the hook:", lin.weight.grad, inp.grad)

# A convolution without bias: grad_input still has the bias's place (None).
torch.manual_seed(2)
conv = nn.Conv1d(1, 1, kernel_size=2, bias=False)
conv.register_backward_hook(lambda m, gi, go: print("conv grad_input:", gi))
conv(torch.randn(1, 1, 3, requires_grad=True)).sum().backward()
