# nn.Linear and F.linear on complex tensors (a complex module, as in the Module.to docs).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
layer = nn.Linear(3, 2).to(torch.cfloat)
print(layer.weight.dtype, layer.bias.dtype)
z = torch.randn(4, 3, dtype=torch.cfloat)
out = layer(z)
print(out)
power = (out * out.conj()).real.mean()
power.backward()
print(power)
print(layer.weight.grad)
print(layer.bias.grad)

# double precision, no bias, a single sample and a batch of sequences
W = torch.randn(2, 3, dtype=torch.cdouble, requires_grad=True)
b = torch.randn(2, dtype=torch.cdouble, requires_grad=True)
v = torch.tensor([1 + 1j, 0.5 - 2j, -1j], dtype=torch.cdouble)
print(F.linear(v, W))
print(F.linear(v, W, b))
seq = torch.randn(2, 4, 3, dtype=torch.cdouble)
y = F.linear(seq, W, b)
print(y.shape, y.grad_fn.name())
y.abs().sum().backward()
print(W.grad)
print(b.grad)

# a real input to a complex layer fails as in PyTorch
for args in ((torch.randn(2, 3), W), (torch.randn(2, 3), W, b)):
    try:
        F.linear(*args)
    except RuntimeError as e:
        print("RuntimeError:", e)
