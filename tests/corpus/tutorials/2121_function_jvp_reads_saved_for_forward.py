# Forward-mode AD through a custom Function: its jvp staticmethod sees in ctx.saved_tensors
# only what setup_context handed to ctx.save_for_forward, not what it saved for backward.
import torch
import torch.autograd.forward_ad as fwAD
from torch.autograd import Function


class Square(Function):
    @staticmethod
    def forward(x):
        return x * x

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g

    @staticmethod
    def jvp(ctx, x_t):
        (x,) = ctx.saved_tensors
        return 2 * x * x_t


class SquareBackwardOnly(Function):
    @staticmethod
    def forward(x):
        return x * x

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g

    @staticmethod
    def jvp(ctx, x_t):
        print("  saved for the jvp:", len(ctx.saved_tensors))
        (x,) = ctx.saved_tensors
        return 2 * x * x_t


x = torch.tensor([1.0, -2.0, 3.0])
v = torch.tensor([1.0, 1.0, 0.5])

print("with save_for_forward:")
print(torch.func.jvp(Square.apply, (x,), (v,)))
with fwAD.dual_level():
    print(fwAD.unpack_dual(Square.apply(fwAD.make_dual(x, v))).tangent)

print("saved for backward only:")
try:
    torch.func.jvp(SquareBackwardOnly.apply, (x,), (v,))
except ValueError as e:
    print("ValueError:", e)
with fwAD.dual_level():
    try:
        SquareBackwardOnly.apply(fwAD.make_dual(x, v))
    except ValueError as e:
        print("ValueError:", e)

print("its backward still reads what it saved:")
w = x.clone().requires_grad_()
SquareBackwardOnly.apply(w).sum().backward()
print(w.grad)
