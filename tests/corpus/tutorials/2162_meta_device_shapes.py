# The meta device: tensors with a shape and a dtype but no values, used to size a model
# before paying for its memory, then giving it real storage with to_empty.
import copy

import torch
import torch.nn as nn
from torch.func import functional_call

a = torch.empty(3, 4, device="meta")
print(a)
print(a.shape, a.device, a.dtype, a.is_meta)
b = torch.randn(4, 5).to("meta")
c = (a @ b).relu()
print(c.shape, c)
print(torch.ones(2, device="meta", dtype=torch.float64))
print(torch.zeros(2, 3, dtype=torch.int64, device=torch.device("meta")))
w = torch.zeros(4, 2, device="meta", requires_grad=True)
print(a @ w)
print(torch.empty_like(a), a.new_zeros(2))
print(a[0].shape, a.view(12).shape, a.t().shape, torch.cat([a, a]).shape)
print(a.sum(), a.mean(dim=0).shape)
print(torch.tensor(2.0) * torch.ones(2, device="meta"))

with torch.device("meta"):
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
print(net[0].weight)
print(net[2].bias.device)
out = net(torch.empty(5, 4, device="meta"))
print(out)

# building on meta draws nothing from the generator
torch.manual_seed(0)
before = torch.rand(2)
torch.manual_seed(0)
lazy = nn.Linear(100, 100, device="meta")
print(torch.equal(before, torch.rand(2)))

net.to_empty(device="cpu")
print(net[0].weight.shape, net[0].weight.device, net[0].weight.is_meta)
with torch.no_grad():
    for layer in (net[0], net[2]):
        nn.init.constant_(layer.weight, 0.5)
        nn.init.zeros_(layer.bias)
print(net(torch.ones(1, 4)))

real = nn.Linear(2, 2)
shell = copy.deepcopy(real).to("meta")
params = dict(real.named_parameters())
print(shell.weight)
print(shell.state_dict())
print(torch.allclose(functional_call(shell, params, (torch.ones(2),)), real(torch.ones(2))))

for attempt in ("item", "tolist", "cpu", "numpy", "mixed", "call"):
    try:
        if attempt == "item":
            a.sum().item()
        elif attempt == "tolist":
            a.tolist()
        elif attempt == "cpu":
            a.to("cpu")
        elif attempt == "numpy":
            a.numpy()
        elif attempt == "mixed":
            a + torch.ones(3, 4)
        else:
            shell(torch.ones(2))
    except (RuntimeError, NotImplementedError, TypeError) as e:
        print(attempt, type(e).__name__, e)
