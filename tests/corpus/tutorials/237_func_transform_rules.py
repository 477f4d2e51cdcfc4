# The rules of torch.func's transforms: what leaves a transform detached and what stays
# attached to the caller's graph, closures over the differentiated tensor, and what PyTorch
# refuses inside a transformed function.
import torch
from torch.func import grad, vmap, jacrev

x = torch.tensor([1.0, 2.0, 3.0])
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)

print(grad(lambda t: (t ** 2).sum())(x))          # nothing outside requires grad: detached
g = grad(lambda t: (w * t ** 2).sum())(x)          # depends on w: differentiable
print(g)
g.sum().backward()
print(w.grad)

# a closure over the same tensor is a constant inside the transform: d/dy (y * x).sum() = x
xr = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
print(grad(lambda y: (y * xr).sum())(xr))

# torch.autograd.grad works inside a transform
print(grad(lambda s: torch.autograd.grad((s ** 3).sum(), s, create_graph=True)[0].sum())(x))

print(jacrev(lambda t: t * w)(x))


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t ** 3

    @staticmethod
    def backward(ctx, g):
        (t,) = ctx.saved_tensors
        return 3 * t ** 2 * g


def refused(name, fn):
    try:
        fn()
    except RuntimeError as e:
        print(f"{name}: {str(e)[:90]}")


refused("requires_grad_", lambda: grad(lambda s: (s.detach().requires_grad_() * s).sum())(x))
refused("backward", lambda: grad(lambda s: ((s ** 2).sum().backward(), s.sum())[1])(x))
refused("Function", lambda: vmap(Cube.apply)(x))
refused("functional", lambda: grad(lambda s: torch.autograd.functional.jacobian(torch.sin, s).sum())(x))
print(torch.autograd.functional.jacobian(Cube.apply, x))
