import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.Linear(3, 2)


def backward_hook(module, grad_input, grad_output):
    print("module:", module)
    print("grad_input:", grad_input)
    print("grad_output:", grad_output)


handle = layer.register_full_backward_hook(backward_hook)
x = torch.randn(4, 3, requires_grad=True)
out = layer(x)
loss = out.pow(2).mean()
loss.backward()
print(x.grad)
handle.remove()


def scale_input_grad(module, grad_input, grad_output):
    return (grad_input[0] * 0,)


layer.register_full_backward_hook(scale_input_grad)
x.grad = None
layer(x).sum().backward()
print(x.grad)
print(layer.weight.grad)
