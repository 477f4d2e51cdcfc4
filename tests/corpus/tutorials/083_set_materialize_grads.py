import torch


class ScaleTwo(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x * 2

    @staticmethod
    def backward(ctx, g1, g2):
        print("g1 is None:", g1 is None, "| g2 is None:", g2 is None)
        grad = torch.zeros(3)
        if g1 is not None:
            grad = grad + g1
        if g2 is not None:
            grad = grad + 2 * g2
        return grad


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
a, b = ScaleTwo.apply(x)
b.sum().backward()
print(x.grad)

x.grad = None
a, b = ScaleTwo.apply(x)
(a + b).sum().backward()
print(x.grad)
