# Changing in place a tensor autograd saved for backward: normally an error at backward, but
# inside torch.autograd.graph.allow_mutation_on_saved_tensors() the saved value is kept (the
# docs' example, then a few variations people try).
import torch
from torch.autograd.graph import allow_mutation_on_saved_tensors

# The documented example: b is saved by b**2, then changed by sin_()
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    a = torch.ones(2, 3, requires_grad=True)
    b = a.clone()
    out = (b**2).sum()
    print(b.sin_())
    out.sum().backward()
print(a.grad)

# Without the context manager the same program fails at backward
a = torch.ones(2, 3, requires_grad=True)
b = a.clone()
out = (b**2).sum()
b.sin_()
try:
    out.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(":")[0])

# Several changes, and a second consumer recorded after the first change
x = torch.tensor([0.5, 1.0, 1.5], requires_grad=True)
with allow_mutation_on_saved_tensors():
    h = x.clone()
    y1 = h.sin()
    h.mul_(2)
    y2 = h.exp()
    h.add_(1)
    h[0] = 10.0
    (y1.sum() + y2.sum()).backward()
    print(x.grad)
    print(h)

# A weight changed by the optimizer between two backward passes of one graph
torch.manual_seed(0)
layer = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(layer.parameters(), lr=0.5)
inputs = torch.randn(5, 3)
with allow_mutation_on_saved_tensors():
    loss = torch.tanh(layer(inputs)).pow(2).mean()
    loss.backward(retain_graph=True)
    first = layer.weight.grad.clone()
    opt.step()
    opt.zero_grad()
    loss.backward()
    print(torch.allclose(first, layer.weight.grad), layer.weight)

# Blocks do not nest, and the graph must be differentiated inside its block
try:
    with allow_mutation_on_saved_tensors():
        with allow_mutation_on_saved_tensors():
            pass
except RuntimeError as e:
    print("RuntimeError:", e)
with allow_mutation_on_saved_tensors():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = (w * w).sum()
try:
    loss.backward()
except AssertionError as e:
    print("AssertionError:", e)
