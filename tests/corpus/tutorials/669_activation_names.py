# Comparing activations in a loop, labelled by their __name__.
import torch
import torch.nn.functional as F

x = torch.linspace(-2, 2, 5, requires_grad=True)
for act in (torch.sigmoid, torch.tanh, F.relu, F.softplus, F.gelu, torch.exp):
    y = act(x)
    (g,) = torch.autograd.grad(y.sum(), x)
    print(f"{act.__name__:>9s}", y.detach().numpy().round(4), g.numpy().round(4))

for opt_class in (torch.optim.SGD, torch.optim.Adam, torch.optim.RMSprop):
    w = torch.ones(2, requires_grad=True)
    opt = opt_class([w], lr=0.1)
    (w**2).sum().backward()
    opt.step()
    print(opt_class.__name__, w.detach())
print(torch.nn.Tanh.__name__, len.__name__, (lambda: 0).__name__)
