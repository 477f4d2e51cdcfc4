import torch

points = [-2.0, -1.0, 0.0, 1.0, 2.0]
print(f"{'x':>6} {'f(x)':>9} {'df/dx':>9}")
for p in points:
    x = torch.tensor(p, requires_grad=True)
    f = x ** 3 - 3 * x + torch.exp(-x ** 2)
    f.backward()
    print(f"{p:6.2f} {f.item():9.4f} {x.grad.item():9.4f}")
