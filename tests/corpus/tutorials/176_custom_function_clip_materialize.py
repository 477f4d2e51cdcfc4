import torch
from torch.autograd.function import once_differentiable


class ClipGrad(torch.autograd.Function):
    """Identity in the forward pass; clips the gradient in the backward pass."""

    @staticmethod
    def forward(ctx, x, bound):
        ctx.bound = bound
        ctx.set_materialize_grads(False)
        return x.view_as(x), x.detach() * 0 + bound

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out, grad_bound):
        if grad_out is None:
            return None, None
        return grad_out.clamp(-ctx.bound, ctx.bound), None


x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y, b = ClipGrad.apply(x, 0.5)
print(y, b)
print(b.requires_grad)
(y * torch.tensor([10.0, -0.2, 1.0])).sum().backward()
print(x.grad)
