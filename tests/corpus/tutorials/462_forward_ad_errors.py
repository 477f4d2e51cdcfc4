import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([1.0, 2.0, 3.0])
try:
    fwAD.make_dual(x, torch.ones(3))
except RuntimeError as e:
    print("outside:", e)

with fwAD.dual_level():
    try:
        fwAD.make_dual(x, torch.ones(2))
    except RuntimeError as e:
        print("shape:", e)
    try:
        fwAD.make_dual(torch.tensor([1, 2, 3]), torch.ones(3))
    except ValueError as e:
        print("dtype:", e)
    try:
        fwAD.make_dual(x, torch.tensor([1, 0, 0]))
    except ValueError as e:
        print("tangent dtype:", e)
    d = fwAD.make_dual(x, torch.ones(3))
    try:
        fwAD.make_dual(d, torch.ones(3))
    except RuntimeError as e:
        print("twice:", e)
    try:
        with fwAD.dual_level():
            pass
    except RuntimeError as e:
        print("nested:", e)
    try:
        fwAD.unpack_dual(3.0)
    except TypeError as e:
        print("not a tensor:", e)

    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return 2 * a * g

    try:
        Square.apply(d)
    except NotImplementedError as e:
        print("custom:", e)
    print(Square.apply(x))
