import torch


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result


x = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
y = Exp.apply(x)
print(y)
print(y.grad_fn.name())
y.sum().backward()
print(x.grad)
print(torch.allclose(x.grad, torch.exp(x)))
