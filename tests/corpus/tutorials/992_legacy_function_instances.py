# Old code written for PyTorch 0.3: an autograd.Function with an __init__ and non-static
# forward/backward, called on an instance. Today PyTorch builds the instance (running its
# __init__) and refuses the call in its own words. Also: instantiating a modern Function with
# arguments (warned, allowed), a Function without backward (fine forward, refused backward)
# and one without forward.
import torch


class GradReverse(torch.autograd.Function):
    def __init__(self, lambd):
        self.lambd = lambd

    def forward(self, x):
        return x.view_as(x)

    def backward(self, grad_output):
        return grad_output * -self.lambd


def grad_reverse(x, lambd=1.0):
    return GradReverse(lambd)(x)


g = GradReverse(0.25)
print(g.lambd, type(g).__name__)
g.lambd = 0.5
print(g.lambd)
x = torch.ones(3, requires_grad=True)
try:
    y = grad_reverse(x * 2, 0.1)
except RuntimeError as e:
    print("RuntimeError:", e)


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


s = Square(1, name="unused")
print(type(s).__name__)
z = Square.apply(torch.tensor([1.0, -2.0], requires_grad=True))
print(z)


class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 3


w = torch.tensor([1.0, 2.0], requires_grad=True)
out = NoBackward.apply(w)
print(out)
try:
    out.sum().backward()
except NotImplementedError as e:
    print("NotImplementedError:", e)


class NoForward(torch.autograd.Function):
    @staticmethod
    def backward(ctx, grad):
        return grad


try:
    NoForward.apply(w)
except NotImplementedError as e:
    print("NotImplementedError:", e)
