# A lower-case slip: deriving from the module torch.autograd.function instead of the class
# torch.autograd.Function fails at the class statement, with Python's words.
import torch
from torch.autograd import function

try:

    class Exp(function):
        @staticmethod
        def forward(ctx, i):
            return i.exp()

except TypeError as e:
    print("TypeError:", e)


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


x = torch.tensor([0.0, 1.0], requires_grad=True)
Exp.apply(x).sum().backward()
print(x.grad)
