# torch.compile with the "eager" backend around a custom autograd.Function: the node the
# output carries, next to the default (AOTAutograd) backends and a function that graph-breaks.
import torch


class ScaledSquare(torch.autograd.Function):
    @staticmethod
    def forward(x, scale):
        return scale * x * x

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, scale = inputs
        ctx.save_for_backward(x)
        ctx.scale = scale

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * ctx.scale * x * grad, None


class Chatty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.exp()

    @staticmethod
    def backward(ctx, grad):
        print("Chatty backward")
        return grad * 2


def energy(x):
    return ScaledSquare.apply(x, 0.5).sum()


x = torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64, requires_grad=True)

for backend in ("eager", "aot_eager"):
    fn = torch.compile(energy, backend=backend)
    e = fn(x)
    print(backend, e, type(e.grad_fn).__name__)
    e.backward()
    print(x.grad)
    x.grad = None

step = torch.compile(lambda t: ScaledSquare.apply(t, 3.0) + 1, backend="eager", fullgraph=True)
y = step(x)
print(y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())
y.backward(torch.ones(3, dtype=torch.float64))
print(x.grad)

z = torch.compile(lambda t: Chatty.apply(t), backend="eager")(x)
print(z.grad_fn.name())
z.sum().backward()

with torch.no_grad():
    print(torch.compile(energy, backend="eager")(x))
