# What a custom autograd.Function's backward may return: one Tensor (or None) per
# forward argument. Common slips, and the errors PyTorch reports for them.
import numpy as np
import torch


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, factor, mode):
        ctx.factor = factor
        return x * factor

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out * ctx.factor, None, None


x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
Scale.apply(x, 2.5, "fast").sum().backward()
print("good backward:", x.grad)


def with_backward(body):
    class Broken(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b, k):
            ctx.save_for_backward(a, b)
            return a * b * k

        @staticmethod
        def backward(ctx, g):
            a, b = ctx.saved_tensors
            return body(g, a, b)

    return Broken


attempts = [
    ("grad() results kept as tuples", lambda g, a, b: (torch.autograd.grad(a, a, g, allow_unused=True), (b,), None)),
    ("a float for a tensor", lambda g, a, b: (1.0, g * a, None)),
    ("a list for a tensor", lambda g, a, b: (g * b, [0.0, 0.0], None)),
    ("a NumPy array", lambda g, a, b: (np.ones(2), g * a, None)),
    ("a gradient for the int k", lambda g, a, b: (g * b, g * a, g)),
    ("a number for the int k", lambda g, a, b: (g * b, g * a, 0.0)),
    ("too few", lambda g, a, b: (g * b, g * a)),
    ("extra Nones are fine", lambda g, a, b: (g * b, g * a, None, None)),
]
for label, body in attempts:
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    try:
        with_backward(body).apply(a, b, 2).sum().backward()
        print(f"{label}: ok", a.grad, b.grad)
    except RuntimeError as e:
        print(f"{label}: RuntimeError: {e}")
