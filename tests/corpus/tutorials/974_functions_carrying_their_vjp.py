# Reverse mode by hand, the way an autodiff lesson builds it before showing autograd: every
# primitive function carries its vector-Jacobian product as an attribute (`f.vjp = ...`),
# a chain is evaluated forward and then walked backward, and the result is checked against
# torch.autograd. A counter kept on a function counts how often the chain calls it.
import torch


def linear(x, w):
    linear.calls += 1
    return x @ w


def linear_vjp(x, w, u):
    return u @ w.T, x.T @ u


linear.vjp = linear_vjp
linear.calls = 0


def shift(x, b):
    return x + b


shift.vjp = lambda x, b, u: (u, u.sum(0))


def tanh(x, _):
    return torch.tanh(x)


tanh.vjp = lambda x, _, u: (u * (1 - torch.tanh(x) ** 2), None)


def evaluate(x, funcs, params):
    xs = [x]
    for f, p in zip(funcs, params):
        xs.append(f(xs[-1], p))
    return xs


def backward(xs, funcs, params, u):
    grads = [None] * len(funcs)
    for k in reversed(range(len(funcs))):
        u, grads[k] = funcs[k].vjp(xs[k], params[k], u)
    return u, grads


torch.manual_seed(0)
x = torch.randn(4, 3)
w = torch.randn(3, 2)
b = torch.randn(2)
funcs = [linear, shift, tanh]
params = [w, b, None]
xs = evaluate(x, funcs, params)
u0 = torch.ones_like(xs[-1])
gx, (gw, gb, _) = backward(xs, funcs, params, u0)
print("by hand:", gw, gb, sep="\n")

wa, ba = w.clone().requires_grad_(), b.clone().requires_grad_()
torch.tanh(x @ wa + ba).sum().backward()
print("autograd agrees:", torch.allclose(gw, wa.grad), torch.allclose(gb, ba.grad))
print("linear was called", linear.calls, "time(s);", hasattr(tanh, "vjp"), hasattr(tanh, "jvp"))
del linear.calls
print(hasattr(linear, "calls"), getattr(linear, "calls", "gone"))
