# A custom autograd.Function's grad_fn is its ctx: what forward saved and set on ctx can be
# read from the output's grad_fn, as tutorials do when they inspect the graph.
import torch
from torch.autograd import Function


class ScaledExp(Function):
    @staticmethod
    def forward(ctx, x, k):
        y = x.exp() * k
        ctx.save_for_backward(x, y)
        ctx.constant = k
        print("forward ctx:", type(ctx).__name__)
        return y

    @staticmethod
    def backward(ctx, grad_out):
        x, y = ctx.saved_tensors
        print("backward ctx:", type(ctx).__name__, ctx.needs_input_grad)
        return grad_out * y, None


class Scale(Function):
    @staticmethod
    def forward(x, factor):
        return x * factor

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, factor = inputs
        ctx.factor = factor
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, g):
        return g * ctx.factor, None


class TwoWays(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.n = x.numel()
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, a, b):
        return 2 * a + 3 * b


x = torch.tensor([0.5, 1.0, -2.0], requires_grad=True)
y = ScaledExp.apply(x, 2.0)
node = y.grad_fn
print(type(node).__name__, node.name())
print("constant on the node:", node.constant)
print("needs_input_grad:", node.needs_input_grad)
saved_x, saved_y = node.saved_tensors
print(saved_x is x, saved_y)
y.sum().backward()
print(x.grad)
try:
    node.saved_tensors
except RuntimeError as e:
    print("after backward:", str(e).split(".")[0])
print("attributes stay:", node.constant)

z = Scale.apply(x, 4.0)
z.sum().backward(retain_graph=True)
print(z.grad_fn.factor, len(z.grad_fn.saved_tensors), type(z.grad_fn))

a, b = TwoWays.apply(x)
print(a.grad_fn.n, b.grad_fn is a.grad_fn, a.grad_fn.saved_tensors)
try:
    print(a.grad_fn.scale)
except AttributeError as e:
    print("AttributeError:", e)
