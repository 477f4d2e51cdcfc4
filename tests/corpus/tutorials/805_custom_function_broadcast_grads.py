# A custom layer whose backward leaves a gradient at the broadcast shape (the way a Linear
# written by hand with unsqueeze often does), reset_parameters copied from nn.Linear with
# init's private fan helper, a backward returning float64 for a float32 input, and one whose
# gradient cannot be summed down to the input's shape.
import math

import torch
import torch.nn as nn


class HandLinear(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, bias):
        ctx.save_for_backward(x, weight)
        return (weight.unsqueeze(0) * x.unsqueeze(1)).sum(dim=-1) + bias

    @staticmethod
    def backward(ctx, grad_out):
        x, weight = ctx.saved_tensors
        grad_w = grad_out.unsqueeze(-1) * x.unsqueeze(-2)  # (batch, out, in): summed by autograd
        grad_x = (grad_out.unsqueeze(-1) * weight.unsqueeze(0)).sum(dim=1)
        return grad_x, grad_w, grad_out  # grad of bias still (batch, out)


class Layer(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n_out, n_in))
        self.bias = nn.Parameter(torch.empty(n_out))
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        fan_in, fan_out = nn.init._calculate_fan_in_and_fan_out(self.weight)
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        nn.init.uniform_(self.bias, -bound, bound)
        print("fans:", fan_in, fan_out)

    def forward(self, x):
        return HandLinear.apply(x, self.weight, self.bias)


torch.manual_seed(0)
layer = Layer(5, 3)
x = torch.randn(4, 5, requires_grad=True)
ref = nn.functional.linear(x, layer.weight, layer.bias)
out = layer(x)
print(torch.allclose(out, ref))
(out**2).sum().backward()
print(layer.weight.grad)
print(layer.bias.grad)
print(x.grad[0])

w = torch.empty(8, 4, 3, 3)
print(nn.init._calculate_fan_in_and_fan_out(w))
print(nn.init._calculate_correct_fan(w, "FAN_OUT"), nn.init._calculate_correct_fan(w, "fan_in"))
try:
    nn.init._calculate_fan_in_and_fan_out(torch.ones(3))
except ValueError as e:
    print("ValueError:", e)
try:
    nn.init._calculate_correct_fan(w, "fan_avg")
except ValueError as e:
    print("ValueError:", e)


class Widen(torch.autograd.Function):
    @staticmethod
    def forward(ctx, col):
        return col * 2

    @staticmethod
    def backward(ctx, g):
        return torch.arange(12.0, dtype=torch.float64).reshape(3, 4)


col = torch.ones(3, 1, requires_grad=True)
Widen.apply(col).sum().backward()
print(col.grad, col.grad.dtype)


class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, v):
        return v.clone()

    @staticmethod
    def backward(ctx, g):
        return torch.ones(3, 5)


v = torch.ones(4, requires_grad=True)
try:
    Wrong.apply(v).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

torch.manual_seed(1)
print(nn.init.kaiming_normal_(torch.empty(2, 3), mode="FAN_OUT", nonlinearity="relu"))
try:
    nn.init.kaiming_uniform_(torch.empty(2, 3), mode="fan_avg")
except ValueError as e:
    print("ValueError:", e)
