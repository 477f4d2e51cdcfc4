import torch
from torch.autograd.function import once_differentiable


# A custom exp whose backward is written for first-order gradients only
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        (y,) = ctx.saved_tensors
        return grad_out * y


x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)

# first order: fine
y = Exp.apply(x)
y.sum().backward()
print(x.grad)

# asking for a graph of the gradient, with a grad_output that itself requires grad:
# the gradient comes back requiring grad, through an Error node...
v = torch.ones(3, dtype=torch.float64, requires_grad=True)
(g,) = torch.autograd.grad(Exp.apply(x), x, v, create_graph=True)
print(g)
print(g.requires_grad, g.grad_fn.name())
print(type(g.grad_fn.next_functions[0][0]).__name__)

# ...which refuses to be differentiated again
try:
    g.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# with a plain grad_output the gradient simply does not require grad
(g2,) = torch.autograd.grad(Exp.apply(x).sum(), x, create_graph=True)
print(g2.requires_grad, g2.grad_fn)

# gradgradcheck notices that the second derivative is missing
print(torch.autograd.gradgradcheck(Exp.apply, (x,), raise_exception=False))
try:
    torch.autograd.gradgradcheck(Exp.apply, (x,))
except RuntimeError as e:
    print(str(e).splitlines()[0])
