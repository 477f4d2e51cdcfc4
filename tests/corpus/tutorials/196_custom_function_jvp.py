# A custom autograd.Function with its own forward-mode rule (jvp), used under
# torch.autograd.forward_ad as the "Extending torch.autograd" notes describe.
import torch
import torch.autograd.forward_ad as fwAD


class ScaledSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        ctx.scale = scale
        return scale * x * x

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * 2 * ctx.scale * x, None

    @staticmethod
    def jvp(ctx, x_t, scale_t):
        (x,) = ctx.saved_tensors
        print("jvp called, scale tangent:", scale_t)
        return 2 * ctx.scale * x * x_t


class MulAdd(torch.autograd.Function):
    @staticmethod
    def forward(a, b):
        return a * b, a + b

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_forward(*inputs)

    @staticmethod
    def jvp(ctx, a_t, b_t):
        a, b = ctx.saved_tensors
        return a_t * b + a * b_t, a_t + b_t

    @staticmethod
    def backward(ctx, g1, g2):
        return g1, g2


x = torch.tensor([1.0, -2.0, 0.5])
with fwAD.dual_level():
    dx = fwAD.make_dual(x, torch.tensor([1.0, 0.0, 2.0]))
    y = ScaledSquare.apply(dx, 3.0)
    primal, tangent = fwAD.unpack_dual(y)
    print(primal, tangent)
    z = (y.sin() * 2).sum()
    print(fwAD.unpack_dual(z).tangent)

    a = fwAD.make_dual(torch.tensor([3.0, 4.0]), torch.tensor([1.0, 0.0]))
    b = torch.tensor([2.0, 5.0])
    p, s = MulAdd.apply(a, b)
    print(fwAD.unpack_dual(p).tangent, fwAD.unpack_dual(s).tangent)
    print(p)

# backward still uses backward
w = torch.tensor([1.0, 2.0], requires_grad=True)
ScaledSquare.apply(w, 0.5).sum().backward()
print(w.grad)
