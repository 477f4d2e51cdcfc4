# A decorator of the program's own is a call on the function: f = deco(f)
import torch

calls = {}


def counted(fn):
    def wrapper(*args, **kwargs):
        calls[fn.__name__] = calls.get(fn.__name__, 0) + 1
        return fn(*args, **kwargs)

    return wrapper


def scaled_grad(factor):
    def deco(fn):
        def inner(x):
            y = fn(x)
            if y.requires_grad:
                y.register_hook(lambda g: g * factor)
            return y

        return inner

    return deco


@counted
@scaled_grad(0.5)
def square(x):
    return x * x


x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
for _ in range(3):
    square(x).sum().backward()
print(x.grad)
print(calls)
print(square.__name__)


def frozen(fn):
    return torch.no_grad()(fn)


@frozen
def update(p, lr):
    p -= lr * p.grad
    return p


update(x, 0.1)
print(x, x.requires_grad)


def announce(method):
    def wrapper(self, inp):
        out = method(self, inp)
        print(f"{type(self).__name__}.{method.__name__}: {tuple(out.shape)}")
        return out

    return wrapper


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 2)

    @announce
    def forward(self, inp):
        return torch.tanh(self.fc(inp))


torch.manual_seed(0)
net = Net()
out = net(torch.ones(4, 3))
out.sum().backward()
print(net.fc.bias.grad)


def registry(table):
    def add(fn):
        table[fn.__name__] = fn
        return fn

    return add


LOSSES = {}


@registry(LOSSES)
def l1(a, b):
    return (a - b).abs().mean()


@registry(LOSSES)
def l2(a, b):
    return ((a - b) ** 2).mean()


a = torch.tensor([0.0, 1.0, 4.0])
for name in sorted(LOSSES):
    print(name, LOSSES[name](a, torch.ones(3)))


def gone(fn):
    return None


@gone
def never():
    return 1


try:
    never()
except TypeError as e:
    print("TypeError:", e)
