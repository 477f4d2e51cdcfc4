import math
import torch

x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)

# y = a + b x + c x^2 + d x^3, weights start at fixed values
a = torch.tensor(0.1, requires_grad=True)
b = torch.tensor(0.2, requires_grad=True)
c = torch.tensor(-0.1, requires_grad=True)
d = torch.tensor(0.05, requires_grad=True)

learning_rate = 1e-5
for t in range(500):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None

print(f'Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3')
