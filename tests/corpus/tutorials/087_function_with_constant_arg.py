import torch


class MulConstant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        # no gradient for the python number: return None for it
        return grad_output * ctx.constant, None


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = MulConstant.apply(x, 5.5)
print(y)
y.backward(torch.tensor([1.0, 0.0, -1.0]))
print(x.grad)

