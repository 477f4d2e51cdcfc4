# Stacking the same block several times with `*`: the repeats are the same module objects,
# so their weights are shared (a cheap way to build a weight-tied deep network).
import torch
import torch.nn as nn

torch.manual_seed(11)

block = nn.Sequential(nn.Linear(3, 3), nn.Tanh())
tied = block * 3
print(tied)
print(tied[0] is tied[2] is tied[4], len(list(tied.parameters())))

stack = nn.Sequential(nn.Linear(3, 3))
stack *= 2
print(len(stack), stack[0] is stack[1])

for factor in (0, 1.5):
    try:
        block * factor
    except (TypeError, ValueError) as e:
        print(type(e).__name__ + ":", e)

x = torch.randn(4, 3)
out = (2 * block)(x).sum()
out.backward()
print(round(out.item(), 5))
print(block[0].weight.grad)
print(block[0].bias.grad)
