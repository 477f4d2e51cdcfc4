# PyTorch 2 style custom Function: forward without ctx, setup_context saves what backward
# needs, and then torch.func's transforms can see through it.
import torch
from torch.func import grad, vjp, jacrev, vmap, jvp


class Cube(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * 3 * x ** 2


class SoftClip(torch.autograd.Function):
    @staticmethod
    def forward(x, limit):
        return limit * torch.tanh(x / limit)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, limit = inputs
        ctx.limit = limit
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * (1 - (y / ctx.limit) ** 2), None


x = torch.tensor([0.5, -1.0, 2.0])
print("cube:", Cube.apply(x))
print("grad of sum:", grad(lambda t: Cube.apply(t).sum())(x))
print("jacobian:\n", jacrev(Cube.apply)(x))
out, pull = vjp(lambda t: SoftClip.apply(t, 1.5), x)
print("soft clip:", out)
print("pulled back:", pull(torch.ones(3)))
print("per row:", vmap(Cube.apply)(torch.arange(6.0).reshape(3, 2)))
print("second derivative:", grad(lambda t: grad(lambda u: Cube.apply(u).sum())(t).sum())(x))

for name, run in [
    ("vmap soft clip", lambda: vmap(lambda t: SoftClip.apply(t, 1.0))(x)),
    ("jvp cube", lambda: jvp(Cube.apply, (x,), (torch.ones(3),))),
]:
    try:
        print(name, run())
    except (RuntimeError, NotImplementedError) as err:
        print(name, "->", type(err).__name__, str(err).split(".")[0])
