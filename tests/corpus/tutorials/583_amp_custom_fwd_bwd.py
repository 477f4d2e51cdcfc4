# A custom autograd Function decorated for AMP (custom_fwd / custom_bwd), as CUDA
# extensions' Python wrappers write it; without autocast the decorators change nothing.
import torch


class ScaledMatMul(torch.autograd.Function):
    @staticmethod
    @torch.cuda.amp.custom_fwd
    def forward(ctx, a, b, scale):
        ctx.save_for_backward(a, b)
        ctx.scale = scale
        return a.mm(b) * scale

    @staticmethod
    @torch.cuda.amp.custom_bwd
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad.mm(b.t()) * ctx.scale, a.t().mm(grad) * ctx.scale, None


class Square(torch.autograd.Function):
    @staticmethod
    @torch.cuda.amp.custom_fwd(cast_inputs=torch.float32)
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @torch.amp.custom_bwd(device_type="cuda")
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g


class Cube(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float64)
    def forward(ctx, x):
        ctx.save_for_backward(x)
        print("forward sees", x.dtype)
        return x**3

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x**2 * g


a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = torch.tensor([[0.5, 1.0], [-1.0, 2.0]], requires_grad=True)
out = ScaledMatMul.apply(a, b, 0.5)
print(out)
out.sum().backward()
print(a.grad)
print(b.grad)

x = torch.tensor([1.5, -2.0], requires_grad=True)
y = Square.apply(x) + Cube.apply(x)
print(y)
y.sum().backward()
print(x.grad)
with torch.autocast("cuda"):
    z = Cube.apply(x)
print(z, type(z.grad_fn).__name__)
print(
    torch.autograd.gradcheck(
        Cube.apply, (torch.tensor([0.3, 0.7], dtype=torch.float64, requires_grad=True),)
    )
)
