# torch.func.functional_call: tied weights (tie_weights=True by default) and a module that
# reassigns one of its buffers while it runs (the new tensor is written back into the dict).
import torch
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(3)


class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("calls", torch.zeros(()))
        self.scale = nn.Parameter(torch.tensor([1.5, -0.5]))

    def forward(self, x):
        self.calls = self.calls + 1
        return x * self.scale


counter = Counter()
state = {"calls": torch.tensor(10.0), "scale": torch.tensor([2.0, 3.0])}
print(functional_call(counter, state, torch.ones(2)))
print("dict after the call:", state)
print("module's own buffer:", counter.calls)

# a list of dicts is merged into a copy: the caller's dicts keep their tensors
first, second = {"calls": torch.tensor(5.0)}, {"scale": torch.tensor([1.0, 1.0])}
print(functional_call(counter, [first, second], torch.ones(2)))
print(first, second)


class TiedDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(3, 2, bias=False)
        self.dec = nn.Linear(2, 3, bias=False)
        self.dec.weight = nn.Parameter(torch.randn(3, 2))
        self.shared = self.enc.weight  # the same Parameter under a second name

    def forward(self, x):
        h = torch.tanh(self.enc(x))
        return (h @ self.shared).sum(-1) + self.dec(h).sum(-1)


model = TiedDecoder()
print([n for n, _ in model.named_parameters()])
print([n for n, _ in model.named_parameters(remove_duplicate=False)])
x = torch.randn(4, 3)
w = torch.randn(2, 3)
print(model(x))
print(functional_call(model, {"enc.weight": w}, (x,)))  # `shared` follows enc.weight
print(functional_call(model, {"enc.weight": w}, (x,), tie_weights=False))
print(functional_call(model, {"enc.weight": w, "shared": w}, (x,)))  # one tensor: allowed
try:
    functional_call(model, {"enc.weight": w, "shared": w.clone()}, (x,))
except ValueError as err:
    print("ValueError:", err)
try:
    functional_call(model, {"enc.weight": w}, (x,), tie_weights=False, strict=True)
except RuntimeError as err:
    print("RuntimeError:", err)
full = {"enc.weight": w, "dec.weight": torch.zeros(3, 2)}
print(functional_call(model, full, (x,), strict=True))


# the gradient of a loss through the tied weight reaches it by both names
def loss_fn(params, inp):
    return functional_call(model, params, (inp,)).pow(2).mean()


params = {k: v.detach() for k, v in model.named_parameters()}
grads = torch.func.grad(loss_fn)(params, x)
print(sorted(grads))
print(grads["shared"])
print(grads["dec.weight"])

# one Linear registered under two attribute names: each path can be given


class Twice(nn.Module):
    def __init__(self):
        super().__init__()
        lin = nn.Linear(2, 1, bias=False)
        self.left = lin
        self.right = lin

    def forward(self, x):
        return self.left(x) - 2 * self.right(x)


twice = Twice()
print([n for n, _ in twice.named_parameters(remove_duplicate=False)])
v = torch.tensor([[1.0, -1.0]])
print(functional_call(twice, {"left.weight": v}, torch.tensor([[2.0, 0.5]])))
print(functional_call(twice, {"right.weight": v * 3}, torch.tensor([[2.0, 0.5]])))
