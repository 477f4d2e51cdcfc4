# A custom autograd.Function reused through subclasses: what a subclass does not define is
# its base's.
import torch


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        print("Double.backward")
        return g * 2


class DoubleNoisyGrad(Double):
    @staticmethod
    def backward(ctx, g):
        print("DoubleNoisyGrad.backward")
        (x,) = ctx.saved_tensors
        return g * 2 + x


class Same(DoubleNoisyGrad):
    pass


x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
for F in (Double, DoubleNoisyGrad, Same):
    y = F.apply(x)
    print(F.__name__, y, y.grad_fn.name())
    y.sum().backward()
    print(x.grad)
    x.grad = None
