# torch.cond and while_loop run eagerly: data-dependent branches and loops written the way
# the control-flow docs show them, with gradients flowing through.
import torch
from torch._higher_order_ops.while_loop import while_loop


def true_fn(x: torch.Tensor):
    return x.cos()


def false_fn(x: torch.Tensor):
    return x.sin()


x = torch.tensor([0.25, -1.5, 2.0], dtype=torch.float64, requires_grad=True)
out = torch.cond(x.sum() > 0, true_fn, false_fn, (x,))
print(out)
out.sum().backward()
print("grad:", x.grad)

# a Python bool runs the branch directly
y = torch.cond(x.shape[0] > 4, true_fn, false_fn, (x,))
print(y.grad_fn.name())


class Gate(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3).double()

    def forward(self, x):
        def big(x):
            return self.lin(x).tanh()

        def small(x):
            return self.lin(x) * 0.5

        return torch.cond(x.norm() > 1.0, big, small, (x,))


torch.manual_seed(0)
gate = Gate()
for inp in (torch.full((3,), 0.1, dtype=torch.float64), x.detach()):
    r = gate(inp)
    print(r.grad_fn.name(), r.detach().numpy().round(4))
gate(x.detach()).sum().backward()
print(gate.lin.weight.grad)

# several outputs in a tuple
a, b = torch.cond(torch.tensor(False), lambda u, v: (u + v, u * v), lambda u, v: (u - v, u / v),
                  (x, torch.tensor([2.0, 4.0, 8.0], dtype=torch.float64)))
print(a, b)

try:
    torch.cond(torch.tensor([True, False]), true_fn, false_fn, (x,))
except RuntimeError as e:
    print("error:", e)


def cond_fn(i, v):
    return i < 4


def body_fn(i, v):
    return i + 1, v * 0.5 + v.sin()


i, v = while_loop(cond_fn, body_fn, (torch.tensor(0), x))
print(i, v)
v.sum().backward()
print(x.grad)

count, total = torch.while_loop(lambda n, s: s.sum() < 20, lambda n, s: (n + 1, s * 2),
                                (0, torch.tensor([1.0, 2.0])))
print(count, total)
