# The older torch.nn.utils.stateless.functional_call (a FutureWarning, then torch.func's)
import torch
import torch.nn as nn
from torch.nn.utils.stateless import functional_call

torch.manual_seed(1)
net = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
params = dict(net.named_parameters())
x_s, y_s = torch.randn(6, 2), torch.randn(6, 1)
x_q, y_q = torch.randn(6, 2), torch.randn(6, 1)

for step in range(2):
    inner = nn.functional.mse_loss(functional_call(net, params, (x_s,)), y_s)
    grads = torch.autograd.grad(inner, params.values(), create_graph=True)
    fast = {k: v - 0.1 * g for (k, v), g in zip(params.items(), grads)}
    outer = nn.functional.mse_loss(functional_call(net, fast, (x_q,)), y_q)
    outer.backward()
    print(step, round(inner.item(), 6), round(outer.item(), 6))
print(net[0].bias.grad)
print(torch.nn.utils.stateless.functional_call(net, params, x_q).shape)
