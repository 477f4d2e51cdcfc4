# A hand-written clipped ReLU whose first backward forgets to take `input` back out of
# ctx.saved_tensors: the name then means Python's builtin input() function, and the mask
# comparison fails with Python's TypeError.
import torch


class ClippedReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, top):
        ctx.save_for_backward(input)
        ctx.top = top
        return input.clamp(0.0, top)

    @staticmethod
    def backward(ctx, grad_output):
        grad = grad_output.clone()
        grad[(input < 0) | (input > ctx.top)] = 0  # `input` was never unpacked
        return grad, None


class ClippedReLUFixed(ClippedReLU):
    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        grad = grad_output.clone()
        grad[(input < 0) | (input > ctx.top)] = 0
        return grad, None


x = torch.linspace(-2.0, 3.0, 6, dtype=torch.float64, requires_grad=True)
print("what the name refers to:", input)
try:
    ClippedReLU.apply(x, 2.0).sum().backward()
except TypeError as err:
    print("TypeError:", err)
print("grad after the failed backward:", x.grad)

y = ClippedReLUFixed.apply(x, 2.0)
y.sum().backward()
print("forward:", y)
print("grad:", x.grad)
print(torch.autograd.gradcheck(lambda t: ClippedReLUFixed.apply(t, 2.0), (x.detach().add(0.25).requires_grad_(),)))
