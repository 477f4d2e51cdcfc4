# A custom Function whose forward returns a view of a tensor it made: changing that output in
# place (even under no_grad) makes PyTorch refuse to use it again, since the Function's own
# backward would be bypassed; a clone of the output is the way out.
import torch


class TripleFlat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return (x.detach() * 3).view(-1)

    @staticmethod
    def backward(ctx, grad):
        return grad.view(2, 2) * 3


x = torch.ones(2, 2, requires_grad=True)
out = TripleFlat.apply(x)
print(out.grad_fn.name())
with torch.no_grad():
    out.fill_(1.0)
print("filled:", out.detach())
try:
    out.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
print(x.grad)

safe = TripleFlat.apply(x).clone()
with torch.no_grad():
    safe.fill_(1.0)
safe.sum().backward()
print(x.grad)
