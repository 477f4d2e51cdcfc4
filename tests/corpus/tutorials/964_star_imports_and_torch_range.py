# Code from the Variable era: star imports and the inclusive torch.range (deprecated, warns).
import torch
from torch.autograd import *
from torch.nn.functional import relu, softplus

x = Variable(torch.range(1, 6).view(2, 3), requires_grad=True)
print(x)
y = relu(x - 3.5).sum() + softplus(x).mean()
g, = grad(y, x)
print(g)

print(torch.range(0, 1, 0.25), torch.range(0, 0.3, 0.1))
print(torch.range(-1, -3, -0.7), torch.range(2, 2))
print(torch.range(0, 10, 2.5, dtype=torch.int32), torch.range(1, 3, dtype=torch.float64))
print(torch.arange(1, 6).equal(torch.range(1, 5).long()))
for bad in [(3, 1), (0, 1, 0)]:
    try:
        torch.range(*bad)
    except RuntimeError as e:
        print("RuntimeError:", e)

with no_grad():
    z = x * 2
print(z.requires_grad, callable(set_grad_enabled), callable(gradcheck))


class Square(Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t * t

    @staticmethod
    def backward(ctx, g):
        (t,) = ctx.saved_tensors
        return 2 * t * g


w = Variable(torch.range(1, 3), requires_grad=True)
Square.apply(w).sum().backward()
print(w.grad)
