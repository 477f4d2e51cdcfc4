import torch


class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input


relu = MyReLU.apply
x = torch.tensor([[-1.0, 2.0], [0.5, -0.25]], requires_grad=True)
w = torch.tensor([[1.0, -1.0], [2.0, 0.5]], requires_grad=True)
out = relu(x @ w)
print(out)
loss = out.pow(2).sum()
loss.backward()
print(x.grad)
print(w.grad)
