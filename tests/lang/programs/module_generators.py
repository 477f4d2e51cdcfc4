import torch
import torch.nn as nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
ps = m.parameters()
print(type(ps).__name__)
print(next(ps).shape, next(ps).shape)
print(len(list(ps)))
print(sum(p.numel() for p in m.parameters()))
print([n for n, _ in m.named_parameters()])
print([type(c).__name__ for c in m.children()])
print(len(list(m.modules())))
it = iter([1, 2, 3])
print(next(it), next(it), list(it))
for name, child in m.named_children():
    print(name, child)
print(next(iter(m.parameters())).dtype)
print(list(m[0].parameters())[1])
