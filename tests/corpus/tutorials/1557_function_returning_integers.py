# A custom autograd.Function whose forward returns integers (a rounding to class indices,
# a mask): PyTorch never makes such an output differentiable, whatever its input.
import torch


class Bucketize(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return (x * 2).round().long()

    @staticmethod
    def backward(ctx, grad):
        return grad


class Above(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, level):
        return x > level

    @staticmethod
    def backward(ctx, grad):
        return grad, None


scores = torch.tensor([0.2, 1.3, 0.7], requires_grad=True)
buckets = Bucketize.apply(scores)
print(buckets, buckets.requires_grad, buckets.grad_fn, buckets.is_leaf)
mask = Above.apply(scores, 0.5)
print(mask, mask.requires_grad)
try:
    buckets.sum().backward()
except RuntimeError as e:
    print("backward ->", e)
print((scores * mask).sum())
