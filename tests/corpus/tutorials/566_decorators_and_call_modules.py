# Decorators a script writes itself (a call counter, a repeat, functools.wraps) and modules
# written the fast.ai-lesson way, with __call__ instead of forward.
import functools
import torch
from torch import nn


def count_calls(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        wrapper.calls += 1
        return fn(*args, **kwargs)

    wrapper.calls = 0
    return wrapper


def scaled(factor):
    def decorate(fn):
        def inner(x):
            return fn(x) * factor
        return inner
    return decorate


@count_calls
def mse(pred, target):
    return ((pred - target) ** 2).mean()


@scaled(0.5)
@count_calls
def energy(x):
    return (x ** 2).sum()


print(mse.__name__, energy.__name__)
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
e = energy(x)
e.backward()
print(e, x.grad)
print(mse(x.detach(), torch.zeros(3)), mse.calls)


class Lin:
    def __init__(self, w, b):
        self.w, self.b = w, b

    def __call__(self, inp):
        self.inp = inp
        self.out = inp @ self.w + self.b
        return self.out


class Relu(nn.Module):
    def __call__(self, inp):
        return inp.clamp_min(0.0) - 0.5


class Model(nn.Module):
    def __init__(self, n_in, nh, n_out):
        super().__init__()
        torch.manual_seed(0)
        self.layers = [Lin(torch.randn(n_in, nh) * 0.1, torch.zeros(nh)), Relu(),
                       Lin(torch.randn(nh, n_out) * 0.1, torch.zeros(n_out))]

    def __call__(self, x):
        for l in self.layers:
            x = l(x)
        return x


class Logged(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 1)

    def __call__(self, *args, **kwargs):
        print("calling", type(self).__name__)
        return super().__call__(*args, **kwargs)

    def forward(self, x):
        return self.fc(x)


m = Model(4, 3, 1)
xb = torch.linspace(-1, 1, 8).reshape(2, 4)
print(m(xb))
torch.manual_seed(1)
lg = Logged()
lg.register_forward_hook(lambda mod, inp, out: print("hook saw", tuple(out.shape)))
out = nn.Sequential(lg, nn.Tanh())(torch.ones(3, 2))
out.sum().backward()
print(out, lg.fc.weight.grad)
try:
    Model(4, 3, 1).forward(xb)
except NotImplementedError as err:
    print("NotImplementedError:", err)


# A wrapper of a transformed function keeps its name (vmap's wrapper is functools.wraps').
def traceable(f):
    f = torch._dynamo.allow_in_graph(f)

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        return f(*args, **kwargs)

    return wrapper


def per_row_norm(v):
    return v.norm()


batched = traceable(torch.func.vmap(per_row_norm))
print(batched.__name__, torch.func.grad(per_row_norm).__name__, batched(xb))
