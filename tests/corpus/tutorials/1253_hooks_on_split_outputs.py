# Gradient hooks on the pieces of split / unbind / chunk and on a custom Function's several
# outputs: PyTorch runs the hooks of all pieces together, when the gradient reaches their
# common node, and gives None to a piece no gradient reached.
import torch

signal = torch.linspace(-1.0, 1.0, 6, requires_grad=True)
head, middle, tail = signal.split(2)
for name, piece in (("tail", tail), ("head", head), ("middle", middle)):
    piece.register_hook(lambda g, name=name: print(f"  hook {name}:", g))

print("only the middle is used:")
(middle * middle).sum().backward()
print("grad:", signal.grad)

print("head and tail used:")
signal.grad = None
(head.exp().sum() + 3.0 * tail.sum()).backward()
print("grad:", signal.grad)

table = torch.tensor([[1.0, -2.0, 0.5], [3.0, 0.0, -1.0]], requires_grad=True)
cols = table.unbind(1)
cols[2].register_hook(lambda g: print("  col2:", g))
cols[0].register_hook(lambda g: print("  col0:", g))
print("unbind, only column 0 used:")
(cols[0] ** 2).sum().backward()
print(table.grad)

left, right = torch.arange(4.0, requires_grad=True).chunk(2)
right.register_hook(lambda g: print("  right:", g))
left.register_hook(lambda g: print("  left:", g))
print("chunk, both used:")
(left * right).sum().backward()


class SinCos(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sin(), x.cos()

    @staticmethod
    def backward(ctx, gs, gc):
        (x,) = ctx.saved_tensors
        return gs * x.cos() - gc * x.sin()


angle = torch.tensor([0.0, 0.5], requires_grad=True)
s, c = SinCos.apply(angle)
s.register_hook(lambda g: print("  sin hook:", g))
c.register_hook(lambda g: print("  cos hook:", g))
print("custom Function, only cos used:")
c.sum().backward()
print(angle.grad)

# a hook may not invent a gradient where none arrived
a, b = torch.ones(4, requires_grad=True).split(2)
a.register_hook(lambda g: torch.zeros(2) if g is None else g)
try:
    b.sum().backward()
except RuntimeError as err:
    print("refused:", err)
