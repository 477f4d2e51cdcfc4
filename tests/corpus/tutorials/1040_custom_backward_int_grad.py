# Straight-through estimators written by hand: backward hands back a mask or an integer
# count instead of a float tensor (autograd casts it to the input's dtype), a complex input
# given a real gradient, and a real input given a complex one (PyTorch's engine refuses).
import torch


class StraightThroughSign(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.sign(x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        # pass the gradient only where |x| <= 1 ... as a bool mask (a common slip)
        return (x.abs() <= 1) & (grad_output > 0)


class CountGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.floor()

    @staticmethod
    def backward(ctx, grad_output):
        return (grad_output * 3).long()


x = torch.tensor([-1.5, -0.25, 0.5, 2.0], requires_grad=True)
y = StraightThroughSign.apply(x)
y.sum().backward()
print(x.grad, x.grad.dtype)

w = torch.tensor([[0.3, -0.7], [1.9, 2.2]], requires_grad=True)
out = CountGrad.apply(w) * torch.tensor([1.0, 2.5])
out.sum().backward()
print(w.grad)
print(w.grad.dtype)

w64 = torch.tensor([0.3, -0.7], dtype=torch.float64, requires_grad=True)
(g,) = torch.autograd.grad(CountGrad.apply(w64).sum(), w64)
print(g)

# the gradient flows on through the graph after the cast
a = torch.tensor([0.2, 0.9, -3.0], requires_grad=True)
b = a * 2
c = CountGrad.apply(b) ** 2
c.sum().backward()
print(a.grad)


class RealPart(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z):
        return z.clone()

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.real


z = torch.tensor([3.0 + 4.0j, 1.0 - 1.0j], requires_grad=True)
RealPart.apply(z).abs().sum().backward()
print(z.grad)


class Phase(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1.0

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * 1j


class MaskComplex(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z):
        return z * 1.0

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.abs() > 0


r = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    Phase.apply(r).sum().backward()
except RuntimeError as e:
    print("Phase:", e)
print(r.grad)
try:
    MaskComplex.apply(z).abs().sum().backward()
except RuntimeError as e:
    print("MaskComplex:", e)
