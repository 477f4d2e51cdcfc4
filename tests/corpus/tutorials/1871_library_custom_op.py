# A custom operator made with torch.library.custom_op, its backward given with
# register_autograd (with and without setup_context), checked with gradcheck.
import torch
from torch import Tensor


@torch.library.custom_op("mylib::smooth_abs", mutates_args=())
def smooth_abs(x: Tensor, eps: float) -> Tensor:
    return torch.sqrt(x * x + eps)


@smooth_abs.register_fake
def _(x, eps):
    return torch.empty_like(x)


def smooth_abs_setup(ctx, inputs, output):
    x, eps = inputs
    ctx.save_for_backward(x, output)


def smooth_abs_backward(ctx, grad):
    x, out = ctx.saved_tensors
    return grad * x / out, None


torch.library.register_autograd(
    "mylib::smooth_abs", smooth_abs_backward, setup_context=smooth_abs_setup
)

print(smooth_abs)
print(type(smooth_abs))

x = torch.tensor([-2.0, -0.5, 0.0, 1.5], dtype=torch.float64, requires_grad=True)
y = smooth_abs(x, 0.01)
print(y)
print(y.grad_fn.name())
y.sum().backward()
print(x.grad)
print(torch.autograd.gradcheck(lambda t: smooth_abs(t, 0.1), (x,)))
print(torch.ops.mylib.smooth_abs(x.detach(), eps=1.0))
print(torch.ops.mylib.smooth_abs, torch.ops.mylib.smooth_abs.default)


# two outputs; a backward registered on the op object itself
@torch.library.custom_op("mylib::polar", mutates_args=())
def polar(r: Tensor, theta: Tensor) -> tuple[Tensor, Tensor]:
    return r * torch.cos(theta), r * torch.sin(theta)


def polar_setup(ctx, inputs, output):
    r, theta = inputs
    ctx.save_for_backward(r, theta)


def polar_backward(ctx, gx, gy):
    r, theta = ctx.saved_tensors
    c, s = torch.cos(theta), torch.sin(theta)
    return gx * c + gy * s, r * (gy * c - gx * s)


polar.register_autograd(polar_backward, setup_context=polar_setup)
r = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
theta = torch.tensor([0.3, 1.2], dtype=torch.float64, requires_grad=True)
px, py = polar(r, theta)
(px * py).sum().backward()
print(r.grad, theta.grad)
print(torch.autograd.gradcheck(polar, (r, theta)))

# an op without a formula still records a node; backward through it is an error
@torch.library.custom_op("mylib::cube", mutates_args=())
def cube(x: Tensor) -> Tensor:
    return x ** 3


z = cube(torch.ones(2, requires_grad=True))
print(z)
try:
    z.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    print(cube(torch.full((2,), 2.0, requires_grad=True)))

# returning an input is not allowed
@torch.library.custom_op("mylib::passthrough", mutates_args=())
def passthrough(x: Tensor) -> Tensor:
    return x


try:
    passthrough(torch.ones(1))
except RuntimeError as e:
    print("RuntimeError:", str(e).split(": ", 1)[1][:60])

# an op that changes its input in place
@torch.library.custom_op("mylib::add_into", mutates_args={"out"})
def add_into(out: Tensor, x: Tensor) -> None:
    out.add_(x)


buf = torch.zeros(3)
print(add_into(buf, torch.arange(3.0)), buf)
