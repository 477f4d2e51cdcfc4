# Pieces from unbind/split/chunk share memory with the tensor they came from, and so do the
# views you take of them. PyTorch refuses to change any of them in place while gradients are
# recorded; the usual fix is to work on a copy.
import torch

torch.manual_seed(3)
w = torch.randn(3, 4, requires_grad=True)
h = w * 2

rows = h.unbind(0)
first = rows[0].reshape(2, 2)
try:
    first.add_(1.0)
except RuntimeError as err:
    print("reshape of a row:", err)

halves = h.split(2, dim=1)
try:
    halves[1].t()[0].mul_(0.5)
except RuntimeError as err:
    print("row of a transposed half:", err)

try:
    h.chunk(2)[0][1:].zero_()
except RuntimeError as err:
    print("slice of a chunk:", err)

# made without recording gradients, the same change is allowed
with torch.no_grad():
    piece = h.unbind(1)[2].view(3, 1)
    piece.fill_(0.0)
print(h)

# changing the whole tensor first, then reading an old view of a piece
g = w.clone()
col = g.unbind(1)[0][1:]
g.mul_(3)
try:
    col.sum()
except RuntimeError as err:
    print("stale view:", err)

# a copy of the piece is free to change
safe = h.unbind(0)[1].clone().view(2, 2)
safe.add_(1.0)
loss = (safe * safe).sum() + h.sum()
loss.backward()
print(w.grad)


class PassThrough(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return grad


out = PassThrough.apply(w * 1.0)
try:
    out.flatten()[:2].div_(2)
except RuntimeError as err:
    print("view of a Function's output:", err)
