# A custom autograd.Function used at evaluation time: the same Function runs inside
# torch.no_grad() (or on inputs that do not require grad), where PyTorch records no node.
# Then ctx.save_for_backward is not checked, outputs carry no graph, and a tensor the
# Function returns that was made outside forward is detached in place.
import torch


class ScaledShift(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, shift):
        # a sloppy save: `scale` is a Python float (should be ctx.scale = scale)
        ctx.save_for_backward(x, scale)
        return x * scale + shift

    @staticmethod
    def backward(ctx, g):
        x, scale = ctx.saved_tensors
        return g * scale, None, None


x = torch.linspace(-1.0, 1.0, 5, requires_grad=True)

with torch.no_grad():
    y = ScaledShift.apply(x, 2.0, 0.5)
print("eval:", y, y.requires_grad)

print("constant input:", ScaledShift.apply(torch.ones(3), 3.0, 0.0))

try:
    ScaledShift.apply(x, 2.0, 0.5)  # training: the node is recorded, the save is checked
except TypeError as e:
    print("training:", e)


class Cache(torch.autograd.Function):
    """Returns a tensor it was given through a Python list (not a tensor argument)."""

    @staticmethod
    def forward(ctx, items):
        return items[0]

    @staticmethod
    def backward(ctx, g):
        return None


w = torch.tensor([1.0, -2.0], requires_grad=True)
hidden = w.tanh()
out = Cache.apply([hidden])
print(out is hidden, hidden.requires_grad, hidden.grad_fn, hidden.is_leaf)
hidden.mul_(10)  # detached: a leaf that does not require grad can change in place
print(hidden, w)
