# Inserting layers into a ModuleList: a position from the front works like a list's, but
# PyTorch's insert is not list.insert: a negative position fails, and the layers it had
# already moved stay moved.
import torch
import torch.nn as nn

torch.manual_seed(5)

layers = nn.ModuleList([nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1)])
layers.insert(1, nn.Tanh())  # after the first linear layer
layers.insert(len(layers), nn.Sigmoid())  # at the end
print(layers)

x = torch.randn(3, 2)
h = x
for layer in layers:
    h = layer(h)
print(h.squeeze(1))

try:
    layers.insert(-1, nn.Identity())
except KeyError as e:
    print("KeyError:", e)
print([type(m).__name__ for m in layers])
print(layers[0] is layers[1])

try:
    layers.insert(2.0, nn.Identity())
except TypeError as e:
    print("TypeError:", e)
