# Custom autograd Functions called with keyword arguments, as blog posts write them:
# `Affine.apply(w, x, b, track_x=False)` passes a flag by name. PyTorch binds the keywords to
# forward's parameters (after ctx): every input up to the last one named is an input, so
# backward answers one gradient per place. With setup_context, forward's defaults are inputs
# too. The calls that do not fit are caught to show PyTorch's words.
import torch
from torch.autograd import Function


class Affine(Function):
    @staticmethod
    def forward(ctx, w, x, b, track_x=True):
        ctx.track_x = track_x
        ctx.save_for_backward(w, x)
        return w * x + b

    @staticmethod
    def backward(ctx, grad_out):
        w, x = ctx.saved_tensors
        print("  needs_input_grad:", ctx.needs_input_grad)
        grad_x = grad_out * w if ctx.track_x else None
        return (grad_out * x).sum(0, keepdim=True), grad_x, grad_out.sum(0, keepdim=True), None


w = torch.tensor([1.5], requires_grad=True)
x = torch.tensor([2.0, -1.0, 0.5], requires_grad=True)
b = torch.tensor([0.25], requires_grad=True)

print("flag by name:")
y = Affine.apply(w, x, b, track_x=False)
y.sum().backward()
print(" ", y.detach(), w.grad, x.grad, b.grad)

print("bias by name, flag by default:")
y = Affine.apply(w, x, b=b)
y.sum().backward()
print(" ", w.grad, x.grad, b.grad)

for label, call in [
    ("unknown name", lambda: Affine.apply(w, x, b, scale=2)),
    ("given twice", lambda: Affine.apply(w, x, b, w=w)),
    ("a gap", lambda: Affine.apply(w, b=b)),
]:
    try:
        call()
    except TypeError as e:
        print(label, "->", e)


class Shift(Function):
    @staticmethod
    def forward(x, amount=1.0, scale=2.0):
        return (x + amount) * scale

    @staticmethod
    def setup_context(ctx, inputs, output):
        print("  setup_context sees", len(inputs), "inputs:", inputs[1:])
        ctx.scale = inputs[2]

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out * ctx.scale, None, None


z = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
out = Shift.apply(z)
out.sum().backward()
print("defaults:", out.detach(), z.grad)
z.grad = None
out = Shift.apply(z, scale=-3.0)
out.sum().backward()
print("scale by name:", out.detach(), z.grad)
for label, call in [
    ("unknown name", lambda: Shift.apply(z, offset=1.0)),
    ("too many", lambda: Shift.apply(z, 1.0, 2.0, 3.0)),
    ("given twice", lambda: Shift.apply(z, x=z)),
]:
    try:
        call()
    except TypeError as e:
        print(label, "->", e)
