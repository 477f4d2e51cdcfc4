# The old module.register_backward_hook, as older forum answers use it to look
# at (and clip) gradients: on nn.Linear the hook sees the gradients of the last
# operation's inputs (bias, input, weight.t()), not the module's; returning a
# tuple replaces them. Also a Conv2d, an activation and a whole Sequential.
import torch
import torch.nn as nn

torch.manual_seed(0)


def print_grads(module, grad_input, grad_output):
    name = module.__class__.__name__
    shapes = [None if g is None else tuple(g.shape) for g in grad_input]
    print(f"{name}: grad_input {shapes}, grad_output {[tuple(g.shape) for g in grad_output]}")


def clip(module, grad_input, grad_output):
    return tuple(None if g is None else g.clamp(-0.1, 0.1) for g in grad_input)


fc = nn.Linear(3, 2)
fc.register_backward_hook(print_grads)
x = torch.randn(4, 3, requires_grad=True)
fc(x).pow(2).sum().backward()
print(x.grad)
print(fc.weight.grad, fc.bias.grad)

clipped = nn.Linear(3, 2)
clipped.register_backward_hook(clip)
x2 = torch.randn(4, 3, requires_grad=True)
clipped(x2).pow(2).sum().backward()
print(x2.grad)
print(clipped.weight.grad, clipped.bias.grad)

single = nn.Linear(3, 2, bias=False)
single.register_backward_hook(print_grads)
v = torch.randn(3, requires_grad=True)
single(v).sum().backward()
batched = nn.Linear(3, 2)
batched.register_backward_hook(print_grads)
batched(torch.randn(2, 5, 3)).sum().backward()

conv = nn.Conv2d(1, 2, kernel_size=2)
conv.register_backward_hook(print_grads)
conv(torch.randn(1, 1, 4, 4)).mean().backward()

act = nn.Tanh()
act.register_backward_hook(print_grads)
h = torch.randn(2, 3, requires_grad=True)
act(h * 2).sum().backward()

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
model.register_backward_hook(print_grads)
loss = model(torch.randn(6, 3)).mean()
loss.backward()
print(model[2].bias.grad, model[0].bias.grad.shape)
