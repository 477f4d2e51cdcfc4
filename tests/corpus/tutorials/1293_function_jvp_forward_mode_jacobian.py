# Which rule of a custom Function each forward-mode tool uses: torch.autograd.functional's
# jacobian with strategy="forward-mode" (batched dual tensors) and forward_ad call its jvp;
# torch.autograd.functional.jvp and hvp are double-backward tricks that call its backward.
import torch
import torch.autograd.forward_ad as fwAD
from torch.autograd.functional import hvp, jacobian, jvp


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x, scale):
        return scale * x**3

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, scale = inputs
        ctx.scale = scale
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * ctx.scale * x**2 * g, None

    @staticmethod
    def jvp(ctx, x_t, scale_t):
        # deliberately a rougher rule than backward's, to show which one is used
        (x,) = ctx.saved_tensors
        return ctx.scale * x * x_t


x = torch.tensor([0.5, -1.0, 2.0, 1.5])
f = lambda t: Cube.apply(t, 2.0)  # noqa: E731
print(jacobian(f, x))
print(jacobian(f, x, vectorize=True, strategy="forward-mode"))
print(jvp(f, x, torch.ones(4)))
print(hvp(lambda t: f(t).sum(), x, torch.ones(4)))

with fwAD.dual_level():
    dual = fwAD.make_dual(x, torch.tensor([1.0, 0.0, -1.0, 2.0]))
    out = f(dual) + dual.sin()
    primal, tangent = fwAD.unpack_dual(out)
    print(primal)
    print(tangent)


class Pair(torch.autograd.Function):
    @staticmethod
    def forward(a, b):
        return a * b, a - b

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_forward(*inputs)

    @staticmethod
    def backward(ctx, g1, g2):
        raise RuntimeError("not used here")

    @staticmethod
    def jvp(ctx, a_t, b_t):
        a, b = ctx.saved_tensors
        return a_t * b + a * b_t, a_t - b_t


a = torch.tensor([1.0, 2.0])
b = torch.tensor([3.0, -1.0])
jac = jacobian(lambda p, q: Pair.apply(p, q), (a, b), vectorize=True, strategy="forward-mode")
for row in jac:
    for block in row:
        print(block)
