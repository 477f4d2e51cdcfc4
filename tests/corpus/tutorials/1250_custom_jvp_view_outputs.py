# A custom Function whose forward hands back an input (or a view of one) under forward-mode AD:
# PyTorch then requires the jvp to hand back a view of that input's tangent.
import torch
import torch.autograd.forward_ad as fwAD


class PassThrough(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        return x

    @staticmethod
    def backward(ctx, g):
        return g, None

    @staticmethod
    def jvp(ctx, t, _):
        return t


class PassThroughView(PassThrough):
    @staticmethod
    def jvp(ctx, t, _):
        return t.view_as(t)


class FirstRow(torch.autograd.Function):
    @staticmethod
    def forward(ctx, m):
        return m[0]

    @staticmethod
    def backward(ctx, g):
        out = torch.zeros(2, 3)
        out[0] = g
        return out

    @staticmethod
    def jvp(ctx, tm):
        return tm[0] * 1.0


class FirstRowView(FirstRow):
    @staticmethod
    def jvp(ctx, tm):
        return tm[0]


class Doubled(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2

    @staticmethod
    def jvp(ctx, t):
        return t * 2


primal = torch.tensor([0.5, -1.5, 2.0])
direction = torch.tensor([1.0, 0.25, -2.0])
grid = torch.arange(6.0).reshape(2, 3)
grid_dir = torch.linspace(-1.0, 1.0, 6).reshape(2, 3)

with fwAD.dual_level():
    x = fwAD.make_dual(primal, direction)
    for fn in (PassThrough, PassThroughView):
        try:
            out = fn.apply(x, 3.0)
            p, t = fwAD.unpack_dual(out)
            print(fn.__name__, "tangent", t, "is a view:", t._base is not None)
        except RuntimeError as err:
            print(fn.__name__, "refused:", err)

    m = fwAD.make_dual(grid, grid_dir)
    for fn in (FirstRow, FirstRowView):
        try:
            row = fn.apply(m)
            print(fn.__name__, fwAD.unpack_dual(row).tangent)
        except RuntimeError as err:
            print(fn.__name__, "refused:", err)

    # a fresh output may take any tangent
    d = Doubled.apply(x)
    print("Doubled", fwAD.unpack_dual(d))

    # an input without a tangent is not checked
    plain = torch.tensor([4.0, 5.0, 6.0])
    print("no tangent:", fwAD.unpack_dual(PassThrough.apply(plain, 1.0)).tangent)

# reverse mode still goes through the user's backward
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = PassThroughView.apply(w * 1.0, 2.0)
(y * y).sum().backward()
print(w.grad)
