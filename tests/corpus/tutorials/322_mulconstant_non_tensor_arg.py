import torch


class MulConstant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        # the gradient with respect to a non-Tensor argument is None
        return grad_output * ctx.constant, None


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = MulConstant.apply(x, 5.5)
print(y)
y.backward(torch.tensor([1.0, 1.0, 2.0]))
print(x.grad)

z = MulConstant.apply(MulConstant.apply(x, 2), -1)
print(z)
z.sum().backward()
print(x.grad)
print(z.grad_fn.next_functions[0][0].name())
