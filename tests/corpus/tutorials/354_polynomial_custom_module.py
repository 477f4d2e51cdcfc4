# A custom Module with four scalar nn.Parameters and a method that prints the polynomial.
import math

import torch


class Polynomial3(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))

    def forward(self, x):
        return self.a + self.b * x + self.c * x**2 + self.d * x**3

    def string(self):
        return (
            f"y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2 "
            f"+ {self.d.item():.4f} x^3"
        )


torch.manual_seed(2)
x = torch.linspace(-math.pi, math.pi, 300)
y = torch.sin(x)

model = Polynomial3()
print(model.string())
criterion = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=1e-5)
for t in range(400):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.3f}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

print(f"Result: {model.string()}")
print([n for n, _ in model.named_parameters()])
print(model.a)
