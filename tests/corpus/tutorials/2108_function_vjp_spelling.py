# A custom Function whose backward is spelled `vjp` (PyTorch's other name for it), a subclass
# that inherits it, and one that defines both names (which PyTorch refuses when it runs).
import torch


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def vjp(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return 3 * x**2 * grad_out


class CubeAgain(Cube):
    pass


class Confused(Cube):
    @staticmethod
    def backward(ctx, grad_out):
        return grad_out


x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = Cube.apply(x)
print(y)
y.sum().backward()
print(x.grad)
(g,) = torch.autograd.grad(CubeAgain.apply(x).mean(), x)
print(g)
try:
    Confused.apply(x).sum().backward()
except RuntimeError as err:
    print("RuntimeError:", err)
