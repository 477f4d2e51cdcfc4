# A custom Function with two outputs is one backward node: hooks on it see one gradient
# per output (None for an output the loss did not use), and a pre-hook may rescale them
# before the Function's backward runs.
import torch


class Polar(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        r = torch.sqrt(x * x + y * y)
        theta = torch.atan2(y, x)
        ctx.save_for_backward(x, y, r)
        return r, theta

    @staticmethod
    def backward(ctx, grad_r, grad_theta):
        x, y, r = ctx.saved_tensors
        print("backward receives", grad_r, grad_theta)
        gx = grad_r * x / r - grad_theta * y / (r * r)
        gy = grad_r * y / r + grad_theta * x / (r * r)
        return gx, gy


x = torch.tensor([3.0, 1.0], dtype=torch.float64, requires_grad=True)
y = torch.tensor([4.0, 1.0], dtype=torch.float64, requires_grad=True)
r, theta = Polar.apply(x, y)
node = theta.grad_fn
print(node is r.grad_fn, node.name())


def show_outputs(grad_outputs):
    print("into the node:", grad_outputs)


def halve(grad_outputs):
    return tuple(None if g is None else g / 2 for g in grad_outputs)


def show_inputs(grad_inputs, grad_outputs):
    print("out of the node:", grad_inputs)


node.register_prehook(show_outputs)
node.register_prehook(halve)
node.register_hook(show_inputs)

r.sum().backward(retain_graph=True)
print(x.grad, y.grad)
x.grad = None
y.grad = None
(2 * r + theta).sum().backward()
print(x.grad, y.grad)
