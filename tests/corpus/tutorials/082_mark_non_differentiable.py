import torch


class SortWithIndices(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        values, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return values, idx

    @staticmethod
    def backward(ctx, grad_values, grad_idx):
        idx, = ctx.saved_tensors
        grad_input = torch.zeros_like(grad_values)
        grad_input.index_add_(0, idx, grad_values)
        return grad_input


x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
values, idx = SortWithIndices.apply(x)
print(values, idx)
print(values.requires_grad, idx.requires_grad)
weights = torch.tensor([1.0, 10.0, 100.0])
(values * weights).sum().backward()
print(x.grad)
