# Forward-mode AD through custom Functions that change their input in place (mark_dirty) or
# return an input that had no tangent: what PyTorch requires from jvp and where tangents land.
import torch
import torch.autograd.forward_ad as fwAD


class ScaleInPlace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(3.0)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 3.0

    @staticmethod
    def jvp(ctx, t):
        return t * 3.0  # a new tensor: PyTorch wants the tangent changed in place


class ScaleInPlaceGood(ScaleInPlace):
    @staticmethod
    def jvp(ctx, t):
        t.mul_(3.0)
        return t


class ScaleInPlaceCopy(ScaleInPlace):
    @staticmethod
    def jvp(ctx, t):
        t.mul_(3.0)
        return t.clone()


class Pick(torch.autograd.Function):
    # returns its first argument; its tangent comes from the second one
    @staticmethod
    def forward(ctx, a, b):
        return a

    @staticmethod
    def backward(ctx, g):
        return g, None

    @staticmethod
    def jvp(ctx, ta, tb):
        print("  tangent given for a:", ta)
        return tb + 1.0


for fn in (ScaleInPlace, ScaleInPlaceGood, ScaleInPlaceCopy):
    with fwAD.dual_level():
        v = fwAD.make_dual(torch.tensor([1.0, -2.0, 0.5]), torch.tensor([0.1, 0.2, 0.3]))
        try:
            r = fn.apply(v)
            print(fn.__name__, fwAD.unpack_dual(r), r is v)
        except RuntimeError as err:
            print(fn.__name__, "refused:", err)

with fwAD.dual_level():
    v = torch.tensor([4.0, 5.0])
    r = ScaleInPlace.apply(v)
    print("no tangent:", fwAD.unpack_dual(r).tangent, v)

with fwAD.dual_level():
    a = torch.tensor([1.0, 2.0])
    b = fwAD.make_dual(torch.tensor([0.0, 0.0]), torch.tensor([10.0, 20.0]))
    out = Pick.apply(a, b)
    print("out:", fwAD.unpack_dual(out))
    print("a afterwards:", fwAD.unpack_dual(a))
    print("a squared:", fwAD.unpack_dual(a * a))
