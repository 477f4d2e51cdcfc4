# A slice taken for inspection under no_grad, used later with grad mode on:
# PyTorch refuses in-place changes to it and sends it no gradient.
import torch

x = torch.linspace(-1.0, 1.0, 5, requires_grad=True)
y = x ** 2

with torch.no_grad():
    middle = y[1:4]
    grid = x.view(5, 1)

print(middle, grid.requires_grad)

attempts = {
    "middle[0] = 0": lambda: middle.__setitem__(0, 0.0),
    "middle.add_(1)": lambda: middle.add_(1.0),
    "grid[:, 0].zero_()": lambda: grid[:, 0].zero_(),
    "grid.t().mul_(2)": lambda: grid.t().mul_(2.0),
    "grid[[0, 1]] = 5": lambda: grid.__setitem__([0, 1], 5.0),
}
for name, change in attempts.items():
    try:
        change()
        print(name, "ok")
    except RuntimeError as e:
        print(name, "->", str(e).split(" is being modified")[0])

seen = []
middle.register_hook(lambda g: seen.append(g))
loss = (middle * torch.tensor([1.0, 2.0, 3.0])).sum() + y.sum()
loss.backward()
print(x.grad, seen, middle.grad)

try:
    torch.autograd.grad((grid * 3).sum(), grid)
except RuntimeError as e:
    print(e)
g, = torch.autograd.grad((grid * 3).sum(), grid, allow_unused=True)
print(g)
print(x, y)

# after an update of the weight in place, a slice taken earlier under no_grad is stale
w = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
with torch.no_grad():
    first_row = w[0]
    w -= 0.1 * torch.ones(2, 2)
print(first_row)
try:
    print(first_row.grad_fn)
except RuntimeError as e:
    print("RuntimeError:", e)
fresh_row = w[0]
print(fresh_row, fresh_row.is_leaf)
