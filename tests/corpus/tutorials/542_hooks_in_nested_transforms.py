# Gradient hooks registered inside torch.func transforms: a hook belongs to the transform
# that made its tensor, so an enclosing grad differentiating through it does not run it again.
import torch
from torch.func import grad, jacrev, vjp


def scaled_cube(x):
    y = x * 2
    y.register_hook(lambda g: g * 10)  # scale the gradient flowing into y
    return (y ** 3).sum()


x = torch.tensor(1.5)
print(grad(scaled_cube)(x))
print(grad(grad(scaled_cube))(x))
print(jacrev(jacrev(scaled_cube))(torch.tensor([1.0, 2.0])))


def logged(x):
    h = torch.tanh(x)
    h.register_hook(lambda g: print("grad at h:", g))
    return (h * h).sum()


print(grad(logged)(torch.tensor([0.2, -0.4])))
print(grad(lambda v: grad(logged)(v).sum())(torch.tensor([0.2, -0.4])))

out, pull = vjp(logged, torch.tensor([0.3, 0.6]))
print(out)
print(pull(torch.tensor(1.0)))

w = torch.tensor([1.0, -1.0], requires_grad=True)
w.register_hook(lambda g: print("program hook on w:", g))


def uses_w(x):
    return (w * x).sum()


print(grad(uses_w)(torch.tensor([3.0, 4.0])))
uses_w(torch.tensor([3.0, 4.0])).backward()
print(w.grad)
