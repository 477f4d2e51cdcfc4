import torch
import torch.nn as nn

layer = nn.Linear(3, 2)
with torch.no_grad():
    layer.weight.copy_(torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]]))
    layer.bias.fill_(0.25)

print(layer.weight)
print(layer.bias)

x = torch.tensor([[1.0, 2.0, 3.0]])
out = layer(x)
print(out)
out.sum().backward()
print(layer.weight.grad)
print(layer.bias.grad)

try:
    layer.bias.fill_(0.0)
except RuntimeError as e:
    print(e)
