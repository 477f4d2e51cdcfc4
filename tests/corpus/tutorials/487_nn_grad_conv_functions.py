import torch
import torch.nn.functional as F
from torch.autograd import Function

# torch.nn.grad gives a convolution's input and weight gradients as functions: a custom
# Function can run a convolution and write its backward with them
class MyConv1d(Function):
    @staticmethod
    def forward(ctx, x, w, stride, padding):
        ctx.save_for_backward(x, w)
        ctx.stride, ctx.padding = stride, padding
        return F.conv1d(x, w, stride=stride, padding=padding)

    @staticmethod
    def backward(ctx, grad_out):
        x, w = ctx.saved_tensors
        gx = torch.nn.grad.conv1d_input(x.shape, w, grad_out, ctx.stride, ctx.padding)
        gw = torch.nn.grad.conv1d_weight(x, w.shape, grad_out, ctx.stride, ctx.padding)
        return gx, gw, None, None


torch.manual_seed(7)
x = torch.randn(2, 3, 11, requires_grad=True)
w = torch.randn(4, 3, 3, requires_grad=True)
y = MyConv1d.apply(x, w, 2, 1)
(y * torch.linspace(-1, 1, y.shape[-1])).sum().backward()
gx, gw = x.grad.clone(), w.grad.clone()

x.grad, w.grad = None, None
(F.conv1d(x, w, stride=2, padding=1) * torch.linspace(-1, 1, y.shape[-1])).sum().backward()
print(torch.equal(gx, x.grad), torch.equal(gw, w.grad))
print(gw[0])

# conv2d with groups and dilation, the same kernels as the convolution's own backward
img = torch.randn(1, 4, 7, 6)
k = torch.randn(6, 2, 3, 2, requires_grad=True)
g = torch.randn(1, 6, 3, 4, requires_grad=True)
gi = torch.nn.grad.conv2d_input(img.shape, k, g, stride=1, padding=0, dilation=2, groups=2)
gk = F.grad.conv2d_weight(img, k.shape, g, dilation=2, groups=2)
print(gi.grad_fn.name(), gi.shape, gk.shape)
print(gi[0, 1])

# they are differentiable in grad_output and the weight (double backward)
(gi.pow(2).sum() + gk.sum()).backward()
print(k.grad[0, 0], g.grad[0, 0, 0])

# float64, 3-d
v = torch.randn(1, 2, 4, 4, 3, dtype=torch.float64)
k3 = torch.randn(2, 2, 2, 2, 2, dtype=torch.float64)
g3 = torch.randn(1, 2, 3, 3, 2, dtype=torch.float64)
print(torch.nn.grad.conv3d_input(v.shape, k3, g3).sum())
print(torch.nn.grad.conv3d_weight(v, k3.shape, g3)[1, 0, 0])
