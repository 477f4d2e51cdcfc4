# Scripting the wrong thing: TorchScript wants a module or a function, not its weights
import torch
import torch.nn as nn

layer = nn.Linear(3, 2)
try:
    torch.jit.script(layer.weight)
except RuntimeError as e:
    first = str(e).strip().splitlines()[0]
    print(type(e).__name__, "-", first)
try:
    torch.jit.script(torch.ones(2))
except TypeError as e:
    print("TypeError -", e)
scripted = torch.jit.script(layer)
print(scripted(torch.ones(1, 3)).shape)
