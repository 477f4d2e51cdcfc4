# Keeping a layer's weight orthogonal during training with
# torch.nn.utils.parametrizations.orthogonal.
import torch
import torch.nn as nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import orthogonal

torch.manual_seed(0)
layer = orthogonal(nn.Linear(4, 4))
print(layer)
W = layer.weight
print(W)
print(torch.allclose(W @ W.T, torch.eye(4), atol=1e-5))
print(layer.parametrizations.weight.original)
print(list(layer.state_dict().keys()))
print(parametrize.is_parametrized(layer), parametrize.is_parametrized(layer, "bias"))

opt = torch.optim.Adam(layer.parameters(), lr=0.05)
x = torch.randn(16, 4)
target = torch.randn(16, 4)
for step in range(5):
    opt.zero_grad()
    loss = (layer(x) - target).pow(2).mean()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")
W = layer.weight
print(torch.allclose(W @ W.T, torch.eye(4), atol=1e-5))
print(W.detach().norm(dim=1))

# rectangular weights use Householder reflections (the default for non-square)
tall = orthogonal(nn.Linear(3, 5, bias=False))
print(tall.weight)
print(torch.allclose(tall.weight.T @ tall.weight, torch.eye(3), atol=1e-5))
out = tall(torch.randn(2, 3)).sum()
out.backward()
print(tall.parametrizations.weight.original.grad)

wide = orthogonal(nn.Linear(5, 2), orthogonal_map="cayley")
print(wide.weight.shape, torch.allclose(wide.weight @ wide.weight.T, torch.eye(2), atol=1e-5))

# an already orthogonal weight is kept as it is
base = nn.Linear(3, 3)
nn.init.orthogonal_(base.weight)
before = base.weight.detach().clone()
orthogonal(base)
print(torch.allclose(base.weight, before, atol=1e-6))

try:
    orthogonal(nn.Linear(3, 3), orthogonal_map="qr")
except ValueError as e:
    print(e)
try:
    orthogonal(nn.Linear(3, 3), name="bias")
except ValueError as e:
    print(e)
