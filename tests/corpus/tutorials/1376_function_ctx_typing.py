# A custom autograd Function written with type hints, as newer tutorials do: the ctx
# annotated as torch.autograd.function.FunctionCtx, checked with isinstance in backward.
import torch
from torch.autograd.function import FunctionCtx


class ScaledTanh(torch.autograd.Function):
    @staticmethod
    def forward(ctx: FunctionCtx, x: torch.Tensor, scale: float) -> torch.Tensor:
        y = torch.tanh(x) * scale
        ctx.save_for_backward(x)
        ctx.scale = scale
        return y

    @staticmethod
    def backward(ctx: FunctionCtx, grad: torch.Tensor):
        print("ctx is a FunctionCtx:", isinstance(ctx, FunctionCtx))
        (x,) = ctx.saved_tensors
        return grad * ctx.scale * (1 - torch.tanh(x) ** 2), None


x = torch.linspace(-2, 2, 5, requires_grad=True)
y = ScaledTanh.apply(x, 3.0)
y.sum().backward()
print(y)
print(x.grad)
print(FunctionCtx, isinstance(x, FunctionCtx))
