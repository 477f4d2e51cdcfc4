# A residual block written with an in-place LeakyReLU and then `h += skip` on its output:
# PyTorch's leaky_relu_ keeps its result for backward, so the addition in place breaks the
# graph; the fix is the out-of-place form. A negative slope in place is refused too.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(9)
lin = nn.Linear(4, 4)
x = torch.randn(3, 4)


def block(inp, inplace_add):
    h = F.leaky_relu(lin(inp), 0.2, inplace=True)
    if inplace_add:
        h += inp
    else:
        h = h + inp
    return h


for inplace_add in (True, False):
    lin.zero_grad()
    try:
        block(x, inplace_add).pow(2).sum().backward()
        print("ok", lin.weight.grad.sum().item())
    except RuntimeError as e:
        print("RuntimeError:", str(e).split(". Hint")[0])

z = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
h = z * 1.0
F.leaky_relu(h, -0.5, inplace=True)
try:
    h.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:80])
act = nn.LeakyReLU(0.1, inplace=True)
y = act(z * 3.0)
y.backward(torch.ones(3))
print(y, z.grad)
