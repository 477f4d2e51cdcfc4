# RReLU in training mode draws a slope per negative element; a gradient penalty differentiates
# its gradient again.
import torch
import torch.nn as nn

torch.manual_seed(7)
act = nn.RReLU(lower=0.1, upper=0.4)
x = torch.tensor([[-2.0, -1.0, 0.5], [1.5, -0.25, 3.0]], dtype=torch.float64, requires_grad=True)
y = act(x)
print(y)
print(y.grad_fn.name(), [f.name() for f, _ in y.grad_fn.next_functions])

g, = torch.autograd.grad(y.pow(2).sum(), x, create_graph=True)
print(g)
print(g.grad_fn.name(), [f.name() for f, _ in g.grad_fn.next_functions])
(g ** 2).sum().backward()
print(x.grad)

# a WGAN-GP style penalty through a small model
torch.manual_seed(1)
net = nn.Sequential(nn.Linear(3, 4), nn.RReLU(), nn.Linear(4, 1)).double()
inp = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
out = net(inp).sum()
gi, = torch.autograd.grad(out, inp, create_graph=True)
penalty = (gi.norm(dim=1) - 1).pow(2).mean()
penalty.backward()
print(round(penalty.item(), 6))
print(net[0].weight.grad.shape, round(net[0].weight.grad.abs().sum().item(), 6))

# evaluation mode: the mean slope, no randomness
act.eval()
print(act(x))
