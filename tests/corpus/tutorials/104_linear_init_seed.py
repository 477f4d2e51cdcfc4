import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.Linear(3, 2)
print(layer)
print(layer.weight)
print(layer.bias)
print(layer.weight.shape, layer.bias.shape)

x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]])
y = layer(x)
print(y)
y.sum().backward()
print(layer.weight.grad)

no_bias = nn.Linear(4, 1, bias=False)
print(no_bias.bias)
print(no_bias.weight)
