import torch


class LinearFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_output.mm(weight)
        grad_weight = grad_output.t().mm(input)
        grad_bias = grad_output.sum(0) if bias is not None else None
        return grad_input, grad_weight, grad_bias


inp = torch.tensor([[1.0, 2.0]], requires_grad=True)
W = torch.tensor([[0.5, -1.0], [2.0, 1.0], [0.0, 3.0]], requires_grad=True)
bias = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
LinearFn.apply(inp, W, bias).sum().backward()
print(inp.grad, W.grad, bias.grad, sep="\n")
