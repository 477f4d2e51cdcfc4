# A Function written in the setup_context form, run under torch.func transforms: PyTorch
# calls setup_context once for the plain inputs and once more per grad or jvp level, each
# time with that level's view of which inputs need a gradient.
import torch
from torch.autograd import Function


class Cube(Function):
    @staticmethod
    def forward(x, k):
        return k * x**3

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k = inputs
        ctx.save_for_backward(x)
        ctx.k = k
        print("  setup_context:", ctx.needs_input_grad)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        print("  backward:", ctx.needs_input_grad)
        return grad_out * 3 * ctx.k * x**2, None

    @staticmethod
    def jvp(ctx, x_t, k_t):
        print("  jvp:", ctx.needs_input_grad)
        return x_t * 0  # (not used for the numbers below)


x = torch.tensor([1.0, 2.0])
scale = torch.tensor(0.5, requires_grad=True)

print("plain call:")
Cube.apply(x, 2.0)

print("grad:")
print(torch.func.grad(lambda t: Cube.apply(t, 2.0).sum())(x))

print("grad of grad:")
g2 = torch.func.grad(torch.func.grad(lambda t: Cube.apply(t, 1.0)))
print(g2(torch.tensor(3.0)))

print("vjp:")
out, pull = torch.func.vjp(lambda t: Cube.apply(t, 1.0), x)
print(pull(torch.ones(2)))

print("jvp:")
print(torch.func.jvp(lambda t: Cube.apply(t, 1.0), (x,), (torch.ones(2),))[0])

print("jacrev:")
print(torch.func.jacrev(lambda t: Cube.apply(t, 1.0))(x))

print("a captured tensor that requires grad:")
r = torch.func.grad(lambda t: Cube.apply(t, scale).sum())(x)
print(r)

print("grad with the constant as an input:")


def two_inputs(t, c):
    return Cube.apply(t * c, 1.0).sum()


print(torch.func.grad(two_inputs, argnums=1)(x, torch.tensor(2.0)))
