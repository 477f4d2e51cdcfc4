# A custom Function whose forward hands back its input unchanged (an identity with a
# hand-written backward, a "gradient reversal" layer) returns a view of that input: PyTorch
# forbids changing such an output in place while gradients are recorded, because the
# view+in-place bookkeeping would silently replace the Function's own backward. Cloning the
# output first, or an out-of-place change, keeps the custom backward.
import torch


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad_output):
        return -grad_output


class Halves(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a, b / 2

    @staticmethod
    def backward(ctx, ga, gb):
        return ga, gb / 2


w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
h = w * 3
out = GradReverse.apply(h)
print(out.grad_fn.name(), out.requires_grad)
try:
    out *= 2
except RuntimeError as e:
    print("RuntimeError:", e)

scaled = GradReverse.apply(h).clone()
scaled *= 2
scaled.sum().backward()
print(w.grad)

w.grad = None
out = GradReverse.apply(w * 3)
(out * 2).sum().backward()
print(w.grad)

a, b = Halves.apply(w * 1, w * 2)
try:
    a.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
b.add_(1)
print(b.grad_fn.name())

with torch.no_grad():
    still = GradReverse.apply(w * 1)
    still.add_(10)
print(still)
plain = GradReverse.apply(torch.ones(2))
plain.add_(1)
print(plain)
