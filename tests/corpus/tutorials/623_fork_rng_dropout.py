# Keeping the main random stream untouched while drawing extra noise (torch.random.fork_rng),
# as reproducibility guides show: the dropout masks and the later draws match a run
# without the forked block.
import torch
import torch.nn as nn

torch.manual_seed(0)
drop = nn.Dropout(p=0.5)
x = torch.ones(8, requires_grad=True)
y1 = drop(x)
with torch.random.fork_rng():
    noise = torch.randn(4)
    print("noise inside the fork:", noise)
y2 = drop(x)
print(y1, y2, sep="\n")
(y1 + y2).sum().backward()
print(x.grad)

torch.manual_seed(0)
z1 = drop(torch.ones(8))
z2 = drop(torch.ones(8))
print(torch.equal(z1, y1.detach()), torch.equal(z2, y2.detach()))
with torch.random.fork_rng(enabled=False):
    torch.rand(1)
print(torch.rand(2))
