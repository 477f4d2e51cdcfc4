# forward_ad with a custom Function's jvp: the jvp runs in the program's grad mode, so a
# tangent computed from tensors that require grad has a grad_fn and can be backpropagated
# (a forward-over-reverse product written by hand). The Function is a hard clamp whose
# derivative is replaced by a smooth surrogate, in both of its rules.
import torch
import torch.autograd.forward_ad as fwAD


class SurrogateClamp(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.clamp(-1.0, 1.0)

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * (1 - torch.tanh(x) ** 2)

    @staticmethod
    def jvp(ctx, x_t):
        (x,) = ctx.saved_tensors
        return x_t * (1 - torch.tanh(x) ** 2)


x = torch.tensor([0.3, -1.2, 2.0], requires_grad=True)
direction = torch.tensor([1.0, 0.5, -2.0], requires_grad=True)
with fwAD.dual_level():
    dual = fwAD.make_dual(x, direction)
    y = SurrogateClamp.apply(dual)
    value, slope = fwAD.unpack_dual(y)
    print(value)
    print(slope)
    slope.sum().backward()
print(x.grad)  # d/dx of the surrogate slope times the direction
print(direction.grad)  # the surrogate derivative
sech2 = 1 - torch.tanh(x.detach()) ** 2
print(torch.allclose(x.grad, -2 * torch.tanh(x.detach()) * sech2 * direction.detach()))

plain = torch.tensor([0.3, -1.2, 2.0])
with fwAD.dual_level():
    out = SurrogateClamp.apply(fwAD.make_dual(plain, torch.ones(3)))
    print(fwAD.unpack_dual(out).tangent)  # nothing requires grad: no grad_fn
with torch.no_grad(), fwAD.dual_level():
    out = SurrogateClamp.apply(fwAD.make_dual(x, direction))
    print(fwAD.unpack_dual(out).tangent)  # under no_grad: none either
