# Old weight-normalisation code written for PyTorch 0.3: a legacy autograd Function whose __init__
# calls super().__init__() (Function's __init__ warns that the class should not be instantiated),
# stores its epsilon, and is called on the instance, which PyTorch 2.13 refuses in its own words.
# The same computation written the modern way (static methods, Class.apply) then trains.
import torch


class WeightNormOne(torch.autograd.Function):
    def __init__(self, eps):
        super().__init__()
        self.eps = eps
        self.norm = 0.0

    def forward(self, g, v):
        self.norm = torch.norm(v) + self.eps
        return v * (g / self.norm)


class WeightNormStatic(torch.autograd.Function):
    @staticmethod
    def forward(ctx, g, v, eps):
        norm = torch.norm(v) + eps
        ctx.save_for_backward(g, v, norm)
        return v * (g / norm)

    @staticmethod
    def backward(ctx, dw):
        g, v, norm = ctx.saved_tensors
        dg = (dw * v).sum() / norm
        dv = dw * (g / norm) - v * (g * dg / norm**2)
        return dg.reshape(g.shape), dv, None


legacy = WeightNormOne(1e-6)
print(type(legacy).__name__, legacy.eps, legacy.norm)
g = torch.tensor([2.0], requires_grad=True)
v = torch.tensor([[3.0, 4.0], [0.0, 1.0]], requires_grad=True)
try:
    w = legacy(g, v)
except RuntimeError as e:
    print("refused:", str(e)[:60])

w = WeightNormStatic.apply(g, v, 1e-6)
print(w)
loss = (w**2).sum() + w[0, 0]
loss.backward()
print(g.grad, v.grad)

g2 = g.detach().double().requires_grad_()
v2 = v.detach().double().requires_grad_()
print(torch.autograd.gradcheck(lambda a, b: WeightNormStatic.apply(a, b, 1e-6), (g2, v2)))
