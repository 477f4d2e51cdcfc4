# A quotient changed in place afterwards: PyTorch's DivBackward0 keeps the numerator and the
# divisor, never the quotient itself, so growing or scaling the result in place is allowed;
# changing the numerator is an error only when the divisor needs a gradient.
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([0.5, 4.0, -2.0], requires_grad=True)

# scale, shift and clamp the quotient in place
q = a / b
q *= 3
q += a
q.clamp_(max=5.0)
q.sum().backward()
print("a.grad", a.grad)
print("b.grad", b.grad)

# a quotient by a number, then accumulate into it
a.grad = None
r = (a * a) / 2
r -= a
r.add_(1.0)
r.sum().backward()
print("a.grad", a.grad)

# changing the numerator: fine when only the numerator needs a gradient...
x = torch.tensor([2.0, -1.0], requires_grad=True)
n = x * 1
d = torch.tensor([4.0, 8.0])
y = n / d
n.mul_(10)
y.sum().backward()
print("x.grad", x.grad)

# ...but an error when the divisor needs one too (its gradient reads the numerator)
x.grad = None
n = x * 1
d = torch.tensor([4.0, 8.0], requires_grad=True)
y = n / d
n.mul_(10)
try:
    y.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# changing the divisor is always an error
x.grad = None
d2 = d * 1
y = x / d2
d2.add_(1)
try:
    y.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)


# a custom Function whose backward grows a quotient in place, differentiated twice
class Sinh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        e, ne = torch.exp(t), torch.exp(-t)
        ctx.save_for_backward(e, ne)
        return (e - ne) / 2, e, ne

    @staticmethod
    def backward(ctx, g, g_e, g_ne):
        e, ne = ctx.saved_tensors
        gi = g * (e + ne) / 2
        gi += g_e * e
        gi -= g_ne * ne
        return gi


t = torch.tensor([0.25, -0.5, 1.0], dtype=torch.float64, requires_grad=True)
s = Sinh.apply(t)[0]
(gt,) = torch.autograd.grad(s.sum(), t, create_graph=True)
print(gt)
(ggt,) = torch.autograd.grad(gt.sum(), t)
print(ggt)
print(torch.autograd.gradcheck(lambda u: Sinh.apply(u)[0], t))
print(torch.autograd.gradgradcheck(lambda u: Sinh.apply(u)[0], t))
