import torch


# A hand-written scaled product: backward reads the inputs it saved. Changing one of them in
# place before backward would silently give a wrong gradient, so PyTorch refuses it.
class ScaledProduct(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, scale):
        ctx.save_for_backward(a, b)
        ctx.scale = scale
        return a * b * scale

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad * b * ctx.scale, grad * a * ctx.scale, None


class SoftplusKeepOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out = torch.log1p(torch.exp(x))
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        return grad * torch.sigmoid(x)


a = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
b = torch.tensor([1.5, 2.0, -0.5], requires_grad=True)

# unchanged: backward runs
prod = ScaledProduct.apply(a, b, 2.0)
prod.sum().backward()
print("grads:", a.grad, b.grad)

# an intermediate input changed afterwards
h = a * 3
prod = ScaledProduct.apply(h, b, 2.0)
h.clamp_(min=0)
try:
    prod.sum().backward()
except RuntimeError as err:
    print("changed input:", err)

# a parameter nudged under no_grad between forward and backward
prod = ScaledProduct.apply(a * 1, b, 0.5)
with torch.no_grad():
    b -= 0.1
try:
    prod.sum().backward()
except RuntimeError as err:
    print("changed leaf:", err)

# the Function's own output, scaled in place after the call
x = torch.linspace(-2.0, 2.0, 4, requires_grad=True)
y = SoftplusKeepOut.apply(x)
z = y * 1
y.mul_(0.5)
try:
    z.sum().backward()
except RuntimeError as err:
    print("changed output:", err)

# the fix: change a copy
h = a * 3
prod = ScaledProduct.apply(h, b, 2.0)
h_pos = h.clamp(min=0)
a.grad = None
prod.sum().backward()
print("with a copy:", a.grad, h_pos)

# retained graph: a second backward sees the change made between the two
w = torch.tensor([1.0, 2.0], requires_grad=True)
v = torch.tensor([3.0, 4.0], requires_grad=True)
out = ScaledProduct.apply(w, v, 1.0)
out.sum().backward(retain_graph=True)
print("first:", w.grad, v.grad)
with torch.no_grad():
    v.add_(1.0)
try:
    out.sum().backward()
except RuntimeError as err:
    print("second:", err)
print(v._version, w._version)
