# A custom Function that keeps a helper value on ctx and frees it with `del` once it is used,
# in backward and in a forward-mode jvp.
import torch
import torch.autograd.forward_ad as fwAD


class ScaledSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        ctx.twice = 2 * x * scale  # the derivative, computed once
        return scale * x * x

    @staticmethod
    def backward(ctx, grad_out):
        d = ctx.twice
        del ctx.twice
        print("still kept after del:", hasattr(ctx, "twice"), "| scale:", ctx.scale)
        return grad_out * d, None

    @staticmethod
    def jvp(ctx, x_t, _scale_t):
        out_t = x_t * ctx.twice
        del ctx.twice
        return out_t


x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
y = ScaledSquare.apply(x, 3.0)
y.sum().backward()
print(x.grad)

with fwAD.dual_level():
    primal = torch.tensor([1.0, 2.0, 3.0])
    dual = fwAD.make_dual(primal, torch.tensor([1.0, 0.0, -1.0]))
    out = ScaledSquare.apply(dual, 0.5)
    print(fwAD.unpack_dual(out).tangent)


class Forgetful(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.note = "temporary"
        del ctx.note
        try:
            print(ctx.note)
        except AttributeError as err:
            print("AttributeError:", err)
        try:
            del ctx.note
        except AttributeError as err:
            print("AttributeError:", err)
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return g


print(Forgetful.apply(torch.ones(2)))
