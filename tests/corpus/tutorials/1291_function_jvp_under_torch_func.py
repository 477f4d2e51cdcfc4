# A custom autograd.Function with a jvp staticmethod under torch.func's forward-mode
# transforms (jvp, jacfwd, hessian, linearize): PyTorch takes the output's tangent from the
# Function's jvp, as backward takes gradients from its backward.
import torch
from torch.func import hessian, jacfwd, jacrev, jvp, linearize

torch.manual_seed(7)


class SoftSign(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x / (1 + x.abs())

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g / (1 + x.abs()) ** 2

    @staticmethod
    def jvp(ctx, x_t):
        (x,) = ctx.saved_tensors
        return x_t / (1 + x.abs()) ** 2


x = torch.randn(5)
v = torch.randn(5)
out, tangent = jvp(SoftSign.apply, (x,), (v,))
print(out)
print(tangent)
print(torch.allclose(tangent, v / (1 + x.abs()) ** 2))
print(jacfwd(SoftSign.apply)(x))
print(torch.allclose(jacfwd(SoftSign.apply)(x), jacrev(SoftSign.apply)(x)))


def energy(z):
    return (SoftSign.apply(z) * z).sum()


print(hessian(energy)(x[:3]))
value, jvp_fn = linearize(SoftSign.apply, x)
print(jvp_fn(torch.ones(5)))


# Forward mode trusts the jvp: a straight-through round whose jvp passes the tangent scaled
# by 0.5 while its backward passes the gradient unchanged (the two modes now disagree).
class HalfStraightRound(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return torch.round(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g):
        return g

    @staticmethod
    def jvp(ctx, x_t):
        return 0.5 * x_t


y = torch.tensor([0.4, 1.6, -2.2])
print(jvp(HalfStraightRound.apply, (y,), (torch.ones(3),)))
print(jacrev(HalfStraightRound.apply)(y))


# two outputs, two inputs: the jvp returns one tangent per output
class ScaleShift(torch.autograd.Function):
    @staticmethod
    def forward(a, b):
        return a * b, a + b

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, b = inputs
        ctx.save_for_backward(a, b)
        ctx.save_for_forward(a, b)

    @staticmethod
    def backward(ctx, g_prod, g_sum):
        a, b = ctx.saved_tensors
        return g_prod * b + g_sum, g_prod * a + g_sum

    @staticmethod
    def jvp(ctx, a_t, b_t):
        a, b = ctx.saved_tensors
        return a_t * b + a * b_t, a_t + b_t


a = torch.randn(2, 3)
b = torch.randn(2, 3)
ta = torch.randn(2, 3)
tb = torch.zeros(2, 3)
(prod, total), (d_prod, d_total) = jvp(ScaleShift.apply, (a, b), (ta, tb))
print(d_prod)
print(d_total)
print(torch.allclose(d_prod, ta * b))


def first(a, b):
    return ScaleShift.apply(a, b)[0]


print(jvp(first, (a, b), (torch.zeros(2, 3), torch.ones(2, 3)))[1])
