# What gradcheck does, seen from inside a custom Function that logs its calls: the function
# once, then twice per input element (x - eps, then x + eps), then one backward per output
# element, twice (to see that backward is reentrant), one backward with zero gradients, and
# one more forward and backward with undefined output gradients.
import torch

log = []


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        log.append("F")
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad_out):
        log.append("B")
        (x,) = ctx.saved_tensors
        return 3 * x**2 * grad_out


x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(Cube.apply, (x,)))
print("".join(log), log.count("F"), log.count("B"))

log.clear()
print(torch.autograd.gradcheck(Cube.apply, (x,), check_undefined_grad=False))
print("".join(log))

log.clear()
print(torch.autograd.gradgradcheck(Cube.apply, (x,)))
print(log.count("F"), log.count("B"))


class SinCos(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        log.append("F")
        ctx.save_for_backward(x)
        return x.sin(), x.cos()

    @staticmethod
    def backward(ctx, g_sin, g_cos):
        log.append("B")
        (x,) = ctx.saved_tensors
        return g_sin * x.cos() - g_cos * x.sin()


log.clear()
y = torch.tensor([0.25, 1.5], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(SinCos.apply, (y,)))
print("".join(log))


# a backward that forgets to multiply by grad_output
class Forgetful(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return 2 * x

    @staticmethod
    def backward(ctx, grad_out):
        return torch.full_like(grad_out, 2.0)


z = torch.tensor([[1.0], [3.0]], dtype=torch.float64, requires_grad=True)
try:
    torch.autograd.gradcheck(Forgetful.apply, (z,))
except RuntimeError as e:
    print(type(e).__name__, e)
print(
    torch.autograd.gradcheck(
        Forgetful.apply, (z[:1].detach().requires_grad_(),), raise_exception=False
    )
)

# the numerical Jacobian PyTorch shows is its own difference (b - a) / (2 * eps)
w = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
try:
    torch.autograd.gradcheck(lambda t: Forgetful.apply(t) + t * 0.1, (w,), eps=1e-4)
except RuntimeError as e:
    print(e)
