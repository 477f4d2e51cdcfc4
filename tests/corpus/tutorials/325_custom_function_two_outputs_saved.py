import torch


class SinCos(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        s, c = torch.sin(x), torch.cos(x)
        ctx.save_for_backward(s, c)
        return s * scale, c * scale

    @staticmethod
    def backward(ctx, gs, gc):
        s, c = ctx.saved_tensors
        return ctx.scale * (gs * c - gc * s), None


x = torch.tensor([0.0, 0.5, 1.0], requires_grad=True)
s, c = SinCos.apply(x, 2.0)
print(s)
print(c)
print(s.grad_fn.name(), s.grad_fn is c.grad_fn)
(s * s + c * c).sum().backward()
print(x.grad)

x.grad = None
s, _ = SinCos.apply(x, 1.0)
s.sum().backward()
print(x.grad)
print(torch.allclose(x.grad, torch.cos(x)))
