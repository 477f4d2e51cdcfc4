# A dynamic network: the forward pass reuses the same parameter a varying number of times
# (the number drawn with torch.randint), trained with SGD and momentum.
import math

import torch


class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))
        self.e = torch.nn.Parameter(torch.randn(()))

    def forward(self, x):
        y = self.a + self.b * x + self.c * x**2 + self.d * x**3
        for exp in range(4, int(torch.randint(4, 6, (1,)).item())):
            y = y + self.e * x**exp
        return y

    def string(self):
        return (
            f"y = {self.a.item():.3f} + {self.b.item():.3f} x + {self.c.item():.3f} x^2 "
            f"+ {self.d.item():.3f} x^3 + {self.e.item():.3f} x^4 ? + {self.e.item():.3f} x^5 ?"
        )


torch.manual_seed(4)
x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)
model = DynamicNet()
criterion = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for t in range(500):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.2f}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"Result: {model.string()}")
