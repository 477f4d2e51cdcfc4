# Hyperbolic geometry in a few lines: the distance in the Poincare ball uses acosh, the
# exponential map at the origin uses tanh / atanh, and sinh / cosh / asinh show up in the
# hyperboloid model. Gradients flow through all of them.
import torch


def poincare_distance(u, v):
    sq = ((u - v) ** 2).sum(-1)
    den = (1 - (u ** 2).sum(-1)) * (1 - (v ** 2).sum(-1))
    return torch.acosh(1 + 2 * sq / den)


u = torch.tensor([0.1, 0.2], requires_grad=True)
v = torch.tensor([-0.3, 0.4])
d = poincare_distance(u, v)
print(f"distance: {d.item():.6f}")
d.backward()
print("d distance / d u:", u.grad)

# Exponential and logarithmic maps at the origin.
x = torch.tensor([0.3, -0.4, 1.2], requires_grad=True)
r = x.norm()
y = torch.tanh(r) * x / r
back = torch.atanh(y.norm()) * y / y.norm()
print("exp map:", y)
print("log(exp(x)):", back)
back.sum().backward()
print(x.grad)

# Hyperboloid coordinates from a rapidity, and back with asinh.
s = torch.tensor([-1.0, 0.0, 0.5, 2.0], requires_grad=True)
t, z = torch.cosh(s), torch.sinh(s)
print("t^2 - z^2:", t ** 2 - z ** 2)
rec = torch.asinh(z)
print("asinh(sinh(s)):", rec)
(t + rec).sum().backward()
print("grad:", s.grad)

# The in-place and arc* forms.
k = torch.tensor([0.25, 0.5, 0.75])
print(torch.arctanh(k), torch.arcsinh(k), torch.arccosh(k + 1))
k.atanh_()
print(k)
