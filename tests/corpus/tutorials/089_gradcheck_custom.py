import torch
from torch.autograd import gradcheck


class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.log1p(torch.exp(x))

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return grad_output * torch.sigmoid(x)


inputs = (torch.tensor([-1.0, 0.0, 0.5, 2.0], dtype=torch.double, requires_grad=True),)
test = gradcheck(Softplus.apply, inputs, eps=1e-6, atol=1e-4)
print(test)

f = lambda a, b: (a * b).sin().sum()
a = torch.tensor([[0.1, 0.2], [0.3, 0.4]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([[1.0, -1.0], [2.0, 0.5]], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(f, (a, b)))
print(torch.autograd.gradgradcheck(f, (a, b)))
