# A custom Function whose forward hands back a view of its input, called with gradients
# switched off (an inference pass) and with an output marked non-differentiable.
import torch


class Passthrough(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return grad


class FirstRows(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        head = x[:2]
        ctx.mark_non_differentiable(head)
        return head, x * 2

    @staticmethod
    def backward(ctx, g_head, g_double):
        return g_double * 2


w = torch.tensor([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], dtype=torch.float64, requires_grad=True)

with torch.no_grad():
    out = Passthrough.apply(w)
    rows = w[1:]
    sliced = Passthrough.apply(rows)
print("inference view:", out.requires_grad, out.grad_fn, out.is_leaf)
print("view of a view:", sliced.requires_grad, sliced.shape)

doubled = (out * 3).sum()
print(doubled.requires_grad, doubled.grad_fn is not None)
doubled.backward()
print("w.grad after backward through the inference view:", w.grad)

for change in (lambda: out.add_(1), lambda: out.__setitem__(0, 7.0), lambda: out[1].zero_()):
    try:
        change()
    except RuntimeError as e:
        print("refused:", str(e)[:120])

head, twice = FirstRows.apply(w)
print("head:", head.requires_grad, head.grad_fn, head.is_leaf)
print("twice:", twice.requires_grad, type(twice.grad_fn).__name__)
try:
    head.mul_(0.5)
except RuntimeError as e:
    print("refused:", str(e)[-60:])
twice.sum().backward()
print(w.grad)

with torch.no_grad():
    out.mul_(2)
print(w)
try:
    print(out.grad_fn)
except RuntimeError as e:
    print("stale view:", str(e)[:90])
