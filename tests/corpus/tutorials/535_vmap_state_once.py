# Per-sample computations with torch.func.vmap, where the mapped function touches Python
# state in ways that are the same however many times it runs.
import torch
from torch.func import vmap, jacrev


class Scaler(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.tensor([1.0, 2.0, 3.0]))
        self.last_shape = None
        self.traced = False

    def forward(self, x):
        # remembering what the input looks like: the same value on every call
        self.last_shape = x.shape
        self.traced = True
        return (self.weight * x).sum()


model = Scaler()
xs = torch.arange(12.0).reshape(4, 3)
print(vmap(model)(xs))
print(model.last_shape, model.traced)


class Stats:
    def __init__(self):
        self.calls = 0


def per_sample(x):
    s = Stats()  # an object made inside the function is its own every time
    s.calls += 1
    buf = torch.zeros(3) + x
    buf.mul_(2)  # in place on a tensor the function made
    buf[0] = 1.0
    return buf.sum() * s.calls


print(vmap(per_sample)(xs))

# a batch of one: the function runs once, as in PyTorch
counter = Stats()


def counted(x):
    counter.calls += 1
    return x.exp().sum()


print(vmap(counted)(torch.zeros(1, 2)), counter.calls)

# a hook inside jacrev: PyTorch's backward runs once over all rows
def f(x):
    y = x * x
    y.register_hook(lambda g: print("hook sees", g.shape))
    return y.sin()


print(jacrev(f)(torch.tensor([0.5, 1.0, 1.5])))
print(torch.autograd.functional.jacobian(f, torch.tensor([0.5, 1.0]), vectorize=True))
print(torch.autograd.functional.jacobian(f, torch.tensor([0.5, 1.0])))
