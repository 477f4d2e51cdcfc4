# torch.optim.RMSprop: the default, with momentum, centered, and with weight decay, each
# minimising the same Rosenbrock-like function from the same start.
import torch


def f(p):
    return (1 - p[0]) ** 2 + 5 * (p[1] - p[0] ** 2) ** 2


for kwargs in [
    {"lr": 0.01},
    {"lr": 0.01, "momentum": 0.9},
    {"lr": 0.01, "centered": True},
    {"lr": 0.01, "alpha": 0.9, "weight_decay": 0.01, "eps": 1e-6},
]:
    p = torch.tensor([-1.0, 1.0], requires_grad=True)
    opt = torch.optim.RMSprop([p], **kwargs)
    for i in range(200):
        opt.zero_grad()
        loss = f(p)
        loss.backward()
        opt.step()
    print(kwargs, f"{f(p).item():.6f}", p.detach())
    print(sorted(opt.state[p].keys()))
print(opt.defaults)
