import torch
from torch.autograd import Function


class MaxWithIndex(Function):
    @staticmethod
    def forward(ctx, x):
        value, index = x.max(dim=-1)
        ctx.mark_non_differentiable(index)
        ctx.save_for_backward(x, index)
        return value, index

    @staticmethod
    def backward(ctx, grad_value, grad_index):
        x, index = ctx.saved_tensors
        grad = torch.zeros_like(x)
        grad.scatter_(-1, index.unsqueeze(-1), grad_value.unsqueeze(-1))
        return grad


x = torch.tensor([[1.0, 4.0, 2.0], [3.0, -1.0, 0.5]], requires_grad=True)
value, index = MaxWithIndex.apply(x)
print(value)
print(index, index.requires_grad, index.dtype)
(value * torch.tensor([2.0, -1.0])).sum().backward()
print(x.grad)
print(value.grad_fn.name())
