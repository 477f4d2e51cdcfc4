# What autograd shows for the outputs of torch.compile: one CompiledFunctionBackward node per
# compiled call (its next_functions are the graph's inputs), the wrapper PyTorch puts around
# a compiled module, and the eager nodes where nothing is compiled.
import torch
import torch.nn as nn

torch.manual_seed(0)


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(3, 4)
        self.scale = nn.Parameter(torch.ones(4))

    def forward(self, x):
        h = x * 2
        return (self.hidden(h) * self.scale).tanh().sum(dim=1)


net = TinyNet()
compiled = torch.compile(net)
print(compiled)
print(type(compiled).__name__, compiled._orig_mod is net)
print(list(compiled.state_dict().keys()))

x = torch.randn(2, 3, requires_grad=True)
out = compiled(x)
print(repr(out.grad_fn).split(" at 0x")[0])
print(out.grad_fn.name(), type(out.grad_fn))
print(out)
shapes = []
for fn, _ in out.grad_fn.next_functions:
    shapes.append(None if fn is None else tuple(fn.variable.shape))
print(shapes)
out.sum().backward()
print(x.grad.shape, net.scale.grad is not None)


@torch.compile
def energy(a, b):
    return (a * b).sin(), a.relu()


a = torch.randn(3, requires_grad=True)
b = torch.randn(3)
e, r = energy(a, b)
print(e.grad_fn is r.grad_fn, e.grad_fn.name())
print([n is None for n, _ in e.grad_fn.next_functions])
total = e.sum() + r.sum()
print(total.grad_fn.next_functions[0][0].next_functions[0][0].name())

no_grad_out, _ = energy(b, b)
print(no_grad_out.grad_fn, no_grad_out.requires_grad)

eager_fn = torch.compile(lambda t: t.exp() * 3, backend="eager")
print(eager_fn(a).grad_fn.name())
with torch.compiler.set_stance("force_eager"):
    print(energy(a, b)[0].grad_fn.name())
with torch.no_grad():
    print(compiled(x).grad_fn)
