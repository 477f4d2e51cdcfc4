# Third derivatives with torch.autograd.grad: when a derivative vanishes identically,
# grad(..., allow_unused=True) hands back None, and differentiating that None again fails.
import torch


def derivatives(f, x, n):
    out = []
    y = f(x)
    for _ in range(n):
        (y,) = torch.autograd.grad(y, x, create_graph=True, allow_unused=True)
        out.append(y)
        if y is None:
            break
    return out


x = torch.tensor(0.7, dtype=torch.float64, requires_grad=True)
a = torch.tensor(0.3, dtype=torch.float64, requires_grad=True)
print(derivatives(lambda t: torch.sin(3 * t), x, 3))
print(derivatives(lambda t: a * t, x, 2))

(d1,) = torch.autograd.grad(a * x, x, create_graph=True)
d2 = torch.autograd.grad(d1, x, create_graph=True, allow_unused=True)  # (None,)
try:
    torch.autograd.grad(d2, x, allow_unused=True)
except AssertionError as e:
    print("third derivative of a*x: AssertionError:", e)

y = (x ** 2).sum()
for outputs in [(None,), [y, None], "y"]:
    try:
        torch.autograd.grad(outputs, x, retain_graph=True)
    except AssertionError as e:
        print(type(outputs).__name__, "->", "AssertionError:", e)

for outputs in [None, 2.0, 3]:
    try:
        torch.autograd.grad(outputs, x)
    except TypeError as e:
        print(type(outputs).__name__, "->", "TypeError:", e)

try:
    torch.autograd.backward([y, None])
except Exception as e:
    print(type(e).__name__, e)
print(torch.autograd.grad([y], [x]))
