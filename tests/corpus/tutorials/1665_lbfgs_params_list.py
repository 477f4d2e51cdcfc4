# LBFGS keeps its parameters in opt._params; forum code flattens them from there
import torch

torch.manual_seed(0)
x = torch.linspace(-1, 1, 9)
y = 3 * x ** 2 - 0.5
a = torch.zeros(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.LBFGS([a, b], lr=1, max_iter=20)

print(len(opt._params), opt._params[0] is a, opt._params[1] is b)


def closure():
    opt.zero_grad()
    loss = ((a * x ** 2 + b - y) ** 2).mean()
    loss.backward()
    return loss


opt.step(closure)
flat = torch.cat([p.detach().view(-1) for p in opt._params])
print(flat)
print(sum(p.numel() for p in opt._params))
