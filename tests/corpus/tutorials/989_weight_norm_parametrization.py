# Weight normalization with torch.nn.utils.parametrizations.weight_norm, trained a few steps
import torch
import torch.nn as nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import weight_norm

torch.manual_seed(0)
net = nn.Sequential(weight_norm(nn.Linear(4, 8)), nn.Tanh(), weight_norm(nn.Linear(8, 1), dim=None))
print(net)
first = net[0]
g = first.parametrizations.weight.original0
v = first.parametrizations.weight.original1
print(g.shape, v.shape, net[2].parametrizations.weight.original0)
print(torch.allclose(first.weight, g * v / v.norm(dim=1, keepdim=True)))
print(first.weight.grad_fn.name())

opt = torch.optim.Adam(net.parameters(), lr=0.01)
x, y = torch.randn(16, 4), torch.randn(16, 1)
for step in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(net(x), y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
print(g.grad.flatten()[:3])
print(torch.linalg.vector_norm(first.weight, dim=1) - g.flatten())

parametrize.remove_parametrizations(first, "weight")
print(first, [n for n, _ in first.named_parameters()])
print(parametrize.is_parametrized(net[2]), parametrize.is_parametrized(first))
