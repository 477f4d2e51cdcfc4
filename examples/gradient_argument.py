# The third seed: the `gradient` argument of backward(), torch.autograd.grad, second
# derivatives and a custom torch.autograd.Function.
# Fixes to the seed's code (each is an error in PyTorch too):
#  - it calls y.backward() twice on the same graph: the second call needs retain_graph=True
#    on the first;
#  - it passes a 2-element gradient v to the scalar y: a gradient must have y's shape, so the
#    vector case uses y = x.pow(2) (2x2) and a 2x2 v;
#  - its second-derivative call omits `outputs=y`.
# x is fixed instead of torch.randn so the numbers below are reproducible.
#   gradcli run examples/gradient_argument.py
import torch

x = torch.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)

# Scalar loss: the default upstream gradient is 1.
y = x.pow(2).sum()
y.backward(retain_graph=True)
print(x.grad)  # 2x: tensor([[ 2., -4.], [ 1.,  6.]])

# Vector-valued y: the gradient argument weights each element.
x.grad = None
y = x.pow(2)
v = torch.tensor([[0.1, 0.5], [0.2, 0.3]])
y.backward(gradient=v)
print(x.grad)  # 2 x v: tensor([[ 0.2, -2.0], [ 0.2,  1.8]])

# torch.autograd.grad returns the gradient instead of accumulating it.
y = x.pow(2).sum()
grads = torch.autograd.grad(outputs=y, inputs=x)
print(grads)

# Second derivatives: differentiate the gradient again (create_graph=True).
y = x.pow(3).sum()
first = torch.autograd.grad(
    outputs=y, inputs=x, grad_outputs=torch.ones_like(y), create_graph=True
)[0]
second = torch.autograd.grad(outputs=first, inputs=x, grad_outputs=torch.ones_like(first))[0]
print(first)  # 3x^2
print(second)  # 6x


# A custom gradient, the seed's snippet as written.
class MyFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        # Forward pass implementation
        y = x.pow(2)
        ctx.save_for_backward(x)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        # Backward pass implementation
        (x,) = ctx.saved_tensors
        grad_input = 2 * x * grad_output
        return grad_input


my_function = MyFunction.apply

x.grad = None
y = my_function(x)
y.backward(torch.ones_like(y))
print(x.grad)  # 2x
