import torch
from torch.autograd import Function, gradcheck


class LinearFunction(Function):
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
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        seen.append(ctx.needs_input_grad)
        return grad_input, grad_weight, grad_bias


seen = []
linear = LinearFunction.apply
torch.manual_seed(0)
inp = torch.randn(4, 3, dtype=torch.double, requires_grad=True)
weight = torch.randn(2, 3, dtype=torch.double, requires_grad=True)
bias = torch.randn(2, dtype=torch.double, requires_grad=True)
out = linear(inp, weight, bias)
print(out.grad_fn.name())
out.sum().backward()
print(weight.grad)

frozen = torch.randn(4, 3, dtype=torch.double)
linear(frozen, weight).sum().backward()
print(seen)
print(gradcheck(linear, (inp, weight, bias), eps=1e-6, atol=1e-4))
