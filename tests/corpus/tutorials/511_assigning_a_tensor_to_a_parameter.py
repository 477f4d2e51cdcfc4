# A common slip in a hand-written update: `model.weight = model.weight - lr * grad` replaces the
# Parameter with a plain tensor, which nn.Module refuses (TypeError). Updating in place under
# no_grad, or wrapping the result in nn.Parameter, are the two ways that work.
import torch
import torch.nn as nn

torch.manual_seed(3)
layer = nn.Linear(3, 2)
x = torch.randn(4, 3)
loss = layer(x).pow(2).mean()
loss.backward()

with torch.no_grad():
    try:
        layer.weight = layer.weight - 0.1 * layer.weight.grad
    except TypeError as e:
        print("TypeError:", e)
    try:
        layer.bias = layer.bias.double()
    except TypeError as e:
        print("TypeError:", e)
    try:
        layer.bias = [0.0, 0.0]
    except TypeError as e:
        print("TypeError:", e)
    layer.weight -= 0.1 * layer.weight.grad
print(layer.weight)

layer.bias = nn.Parameter(torch.zeros(2))
print(layer.bias, layer.bias.requires_grad)
print([name for name, _ in layer.named_parameters()])

try:
    layer.weight.grad = torch.ones(3, 2)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    layer.weight.grad = torch.ones(2, 3, dtype=torch.float64)
except RuntimeError as e:
    print("RuntimeError:", e)
layer.weight.grad = None
print(layer.weight.grad)
