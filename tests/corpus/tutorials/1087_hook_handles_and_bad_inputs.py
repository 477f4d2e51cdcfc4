# Keeping hook handles in a typed list and removing them later; and what a layer says when
# it is given something that is not a tensor.
import torch
import torch.nn as nn
import torch.utils.hooks
from torch.utils.hooks import RemovableHandle

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2), nn.Softmax(dim=1))
seen = []
handles: list[torch.utils.hooks.RemovableHandle] = []
for name, layer in model.named_children():
    handles.append(layer.register_forward_hook(lambda mod, inp, out, name=name: seen.append(name)))
handles.append(model[0].weight.register_hook(lambda g: g * 0.5))
print(all(isinstance(h, RemovableHandle) for h in handles), len(handles))

x = torch.randn(2, 3, generator=torch.Generator().manual_seed(0))
model(x).sum().backward()
print(seen)
for h in handles:
    h.remove()
seen.clear()
model(x)
print(seen, model[0].weight.grad.shape)

for bad in ["abc", None, [1.0, 2.0, 3.0]]:
    try:
        model[0](bad)
    except TypeError as e:
        print("Linear:", e)
    try:
        model[3](bad)
    except AttributeError as e:
        print("Softmax:", e)
