# Old tutorials read ctx.saved_variables: it still works, with a DeprecationWarning.
import warnings

import torch


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_variables
        return 3 * x ** 2 * grad_out


x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    Cube.apply(x).sum().backward()
print(x.grad)
print([(w.category.__name__, str(w.message)) for w in caught])

# an error filter turns it into an exception
x.grad = None
with warnings.catch_warnings():
    warnings.simplefilter("error", DeprecationWarning)
    try:
        Cube.apply(x).sum().backward()
    except DeprecationWarning as e:
        print("raised:", e)
print(x.grad)
