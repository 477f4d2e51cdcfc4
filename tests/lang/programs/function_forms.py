# Custom Functions: PyTorch 2's setup_context form, outputs saved for backward (differentiable
# again), a backward that returns extra trailing Nones, the same tensor returned twice.
import torch


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x**3 * k, 3 * x**2 * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k = inputs
        ctx.k = k
        ctx.save_for_backward(x, output[1])

    @staticmethod
    def backward(ctx, g, gd):
        x, d = ctx.saved_tensors
        return g * d + gd * 6 * x * ctx.k, None, None, None


x = torch.tensor([0.5, -2.0], requires_grad=True)
y, d = Cube.apply(x, 2.0)
print(y, d)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g)
(gg,) = torch.autograd.grad(g.sum(), x)
print(gg)


class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        b = a * 2
        return b, b

    @staticmethod
    def backward(ctx, g1, g2):
        return 2 * (g1 + g2)


p, q = Twice.apply(x)
print(p, q, p is q)
(p * 3 + q).sum().backward()
print(x.grad)


class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a.clone()

    @staticmethod
    def backward(ctx, g):
        return g, g


try:
    Bad.apply(x).sum().backward()
except RuntimeError as e:
    print(e)


class Which(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        b = a * 2
        return b, b

    @staticmethod
    def backward(ctx, g1, g2):
        return 10 * g1 + g2


x.grad = None
p, q = Which.apply(x)
q.sum().backward()
print(x.grad)
