# The older way to add an operator: a schema with torch.library.define (or a Library
# object), a CPU kernel with torch.library.impl, and later a backward with register_autograd.
import torch

torch.library.define("demo::scaled_tanh", "(Tensor x, float scale=1.0) -> Tensor")


@torch.library.impl("demo::scaled_tanh", "cpu")
def scaled_tanh_kernel(x, scale=1.0):
    return torch.tanh(x) * scale


print(scaled_tanh_kernel)
x = torch.tensor([-1.0, 0.25, 2.0], dtype=torch.float64, requires_grad=True)
y = torch.ops.demo.scaled_tanh(x, 3.0)
print(y)  # no formula yet: the kernel's own operations are recorded
y.sum().backward()
print(x.grad)


def scaled_tanh_setup(ctx, inputs, output):
    x, scale = inputs
    ctx.scale = scale
    ctx.save_for_backward(output)


def scaled_tanh_backward(ctx, grad):
    (out,) = ctx.saved_tensors
    return grad * (ctx.scale - out * out / ctx.scale), None


torch.library.register_autograd(
    "demo::scaled_tanh", scaled_tanh_backward, setup_context=scaled_tanh_setup
)
x.grad = None
y = torch.ops.demo.scaled_tanh(x, scale=2.0)
print(y.grad_fn.name())
y.backward(torch.ones(3))
print(x.grad)
print(torch.autograd.gradcheck(lambda t: torch.ops.demo.scaled_tanh.default(t), (x,)))

lib = torch.library.Library("extra", "DEF")
name = lib.define("shift(Tensor x, int k) -> Tensor")


def shift_kernel(x, k):
    return torch.roll(x, k)


lib.impl(name, shift_kernel, "CPU")
print(name, lib)
print(torch.ops.extra.shift(torch.arange(5), 2))
