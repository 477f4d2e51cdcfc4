# torch.func transforms and in-place changes: the function may change what it makes and
# what it is given, but not a tensor it captured from outside (a global counter, a
# module's running statistics) -- PyTorch refuses those with the operation's ATen name.
import torch
import torch.nn as nn
from torch.func import grad, jacrev, vjp, jvp, hessian

calls = torch.zeros(1)
w = torch.tensor([0.5, -1.0, 2.0])


def loss_counting(x):
    calls.add_(1)
    return (w * x.sin()).sum()


def loss_scratch(x, buf):
    scratch = torch.zeros(3)
    scratch += x * 2  # made inside: fine
    scratch[0] = 1.0
    buf.mul_(0.5)  # passed in: fine
    return (scratch * w).sum() + x.pow(2).sum()


x = torch.tensor([0.1, 0.2, 0.3])
buf = torch.ones(2)
print(grad(loss_scratch)(x, buf), buf)

attempts = {
    "grad": lambda: grad(loss_counting)(x),
    "jacrev": lambda: jacrev(loss_counting)(x),
    "vjp": lambda: vjp(loss_counting, x)[0],
    "jvp": lambda: jvp(loss_counting, (x,), (torch.ones(3),))[1],
    "hessian": lambda: hessian(loss_counting)(x),
}
for name, run in attempts.items():
    try:
        print(name, run())
    except RuntimeError as e:
        print(name, "refused:", str(e)[:140])
print("calls after the refusals:", calls)

history = torch.zeros(4)


def remember(x):
    history[1] = x.sum()
    return x.exp().sum()


def remember_mask(x):
    history[history == 0] = 2.0
    return x.exp().sum()


def halve_view(x):
    history.view(2, 2).div_(2)
    return x.sum()


def clamp_detached(x):
    w.detach().clamp_(min=0)
    return x.sum()


for f in (remember, remember_mask, halve_view, clamp_detached):
    try:
        print(grad(f)(x))
    except RuntimeError as e:
        msg = str(e)
        start = msg.index("(aten")
        print(f.__name__, msg[start : msg.index(")", start) + 1])

bn = nn.BatchNorm1d(3)
bn.train()
batch = torch.randn(4, 3)
try:
    jacrev(bn)(batch)
except RuntimeError as e:
    print("train-mode BatchNorm:", str(e)[:110])
print(bn.num_batches_tracked, bn.running_mean)
bn.eval()
print(jacrev(lambda b: bn(b).sum())(batch).shape)


def outer(x):
    y = x * 3

    def inner(z):
        y.mul_(2)  # y belongs to the outer transform
        return (z * y).sum()

    return grad(inner)(x).sum()


try:
    grad(outer)(x)
except RuntimeError as e:
    print("nested:", str(e)[:120])
