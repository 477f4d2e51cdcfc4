# ctx.mark_dirty and ctx.mark_non_differentiable take tensors only: PyTorch checks them when
# forward returns (its messages stop where they would name the argument).
import torch


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, factor):
        ctx.mark_non_differentiable(factor)
        print("forward ran")
        return x * factor

    @staticmethod
    def backward(ctx, grad):
        return grad * 2, None


class InPlace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x, "x")
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


x = torch.ones(3, requires_grad=True)
for call in (lambda: Scale.apply(x, 2.0), lambda: InPlace.apply(x.clone())):
    try:
        call()
    except RuntimeError as err:
        print(type(err).__name__, repr(str(err)))
