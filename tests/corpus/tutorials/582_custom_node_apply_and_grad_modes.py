# A custom Function's backward node can be called by hand (grad_fn.apply) to see the
# gradients it hands to each input, and the grad-mode objects print as PyTorch's.
import torch
from torch.autograd import Function


class MultiplyAdd(Function):
    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w, x)
        return w * x + b

    @staticmethod
    def backward(ctx, grad_output):
        w, x = ctx.saved_tensors
        return grad_output * x, grad_output * w, grad_output


torch.manual_seed(5)
x = torch.ones(2)
w = torch.rand(2, requires_grad=True)
b = torch.rand(2, requires_grad=True)
z = MultiplyAdd.apply(w, x, b)
print(type(z.grad_fn).__name__)
print(z.grad_fn.apply(torch.tensor([1.0, 0.5])))
z.sum().backward()
print(w.grad, b.grad)
try:
    (w * 2).grad_fn.apply(torch.ones(2))
except AttributeError as e:
    print("AttributeError:", e)

print(torch.set_grad_enabled(False))
y = w * 2
print(y.requires_grad)
print(torch.set_grad_enabled(True))
print((w * 2).requires_grad)
