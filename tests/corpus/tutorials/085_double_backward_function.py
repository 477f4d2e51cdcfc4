import torch


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    def backward(ctx, grad_out):
        # written with differentiable ops, so it supports double backward
        x, = ctx.saved_tensors
        return grad_out * 2 * x


x = torch.tensor([1.0, -3.0], requires_grad=True)
y = Square.apply(x)
(dy,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(dy)
(d2y,) = torch.autograd.grad(dy.sum(), x)
print(d2y)

x64 = torch.tensor([0.7, -1.3], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Square.apply, (x64,)))
print(torch.autograd.gradgradcheck(Square.apply, (x64,)))
