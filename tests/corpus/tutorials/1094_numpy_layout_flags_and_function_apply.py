# NumPy interop as tutorials check it: is the array of a transposed tensor contiguous, a
# C-ordered copy for a library that needs one, a Function's apply as Python prints it.
import numpy as np
import torch


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g


w = torch.arange(6.0).reshape(2, 3)
a = w.t().numpy()
print(a.flags["C_CONTIGUOUS"], a.flags["F_CONTIGUOUS"], a.flags.c_contiguous)
c = np.ascontiguousarray(a)
print(c.flags["C_CONTIGUOUS"], c.strides, c)
f = np.asfortranarray(w.numpy())
print(f.flags["F"], f.strides, np.ascontiguousarray(w.numpy()) is not None)
print(torch.from_numpy(c).stride(), torch.from_numpy(f).stride())

print(Square.apply)
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
fn = Square.apply
y = fn(x)
y.sum().backward()
print(y, x.grad)
