import torch
from torch.autograd import Function


class MyCube(Function):
    @staticmethod
    def forward(x):
        result = x ** 3
        dx = 3 * x ** 2
        return result, dx

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        return grad_output * dx + grad_dx * 6 * x


def my_cube(x):
    result, dx = MyCube.apply(x)
    return result


x = torch.tensor([0.5, 1.0, -2.0], requires_grad=True)
y = my_cube(x)
print(y)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g)
(gg,) = torch.autograd.grad(g.sum(), x)
print(gg)
