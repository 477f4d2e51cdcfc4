# The memory flags of a custom autograd.Function (PyTorch's "Extending torch.autograd" note):
# boxed_grads_call hands backward the output gradients as one list it may clear as it goes;
# clear_saved_tensors_on_access lets backward read ctx.saved_tensors only once.
import torch
from torch.autograd import Function

torch.manual_seed(0)


class SplitHeads(Function):
    boxed_grads_call = True

    @staticmethod
    def forward(ctx, x, w_a, w_b):
        ctx.save_for_backward(x, w_a, w_b)
        return x.mm(w_a), x.mm(w_b)

    @staticmethod
    def backward(ctx, grads):
        x, w_a, w_b = ctx.saved_tensors
        print("backward got a", type(grads).__name__, "of", len(grads))
        grad_x = torch.zeros_like(x)
        grad_ws = []
        for i, w in enumerate((w_a, w_b)):
            g = grads[i]
            grads[i] = None
            grad_x += g.mm(w.t())
            grad_ws.append(x.t().mm(g))
        print("after the loop:", grads)
        return grad_x, *grad_ws


x = torch.randn(3, 4, requires_grad=True)
w_a = torch.randn(4, 2, requires_grad=True)
w_b = torch.randn(4, 2, requires_grad=True)
a, b = SplitHeads.apply(x, w_a, w_b)
(a.sum() + 3 * b.pow(2).sum()).backward()
print(x.grad)
print(w_b.grad)
print(SplitHeads.boxed_grads_call)

# only one output used: the other's gradient arrives as zeros (materialized)
w_a.grad = None
a, b = SplitHeads.apply(x, w_a, w_b)
a.sum().backward()
print(w_a.grad)


class ScaledSquare(Function):
    clear_saved_tensors_on_access = True

    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        ctx.save_for_backward(x)
        return scale * x * x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return 2 * ctx.scale * x * grad_output, None


y = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
ScaledSquare.apply(y, 1.5).sum().backward()
print(y.grad, ScaledSquare.clear_saved_tensors_on_access)


class ReadsTwice(Function):
    clear_saved_tensors_on_access = True

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        try:
            ctx.saved_tensors
        except RuntimeError as e:
            print("second read:", e)
        return grad_output * x.exp()


z = torch.tensor([0.0, 1.0], requires_grad=True)
ReadsTwice.apply(z).sum().backward()
print(z.grad)
