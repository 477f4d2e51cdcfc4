# Old code calls the deprecated non-inplace Tensor.resize to change a tensor's shape (here in a
# custom Function's backward, as 2018-era answers did). PyTorch warns and keeps the elements.
import torch


class ScaleRows(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(scale)
        return x * scale.resize(scale.numel(), 1)

    @staticmethod
    def backward(ctx, grad_output):
        (scale,) = ctx.saved_tensors
        return grad_output * scale.resize(scale.numel(), 1), None


x = torch.arange(6.0).resize(2, 3).requires_grad_()
print(x)
s = torch.tensor([2.0, -1.0])
y = ScaleRows.apply(x, s)
print(y)
y.sum().backward()
print(x.grad)

flat = x.detach().resize(6)
flat[0] = 10.0  # the storage is shared with x
print(x)
print(x.t().resize(6))  # a transposed tensor: its elements in row-major order
try:
    x.resize(4)
except RuntimeError as e:
    print("RuntimeError:", e)
