import torch
import torch.nn as nn


class Scaler(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k
        self.w = nn.Parameter(torch.ones(2))
        self.inner = nn.Linear(2, 2)

    @staticmethod
    def square(v):
        return v * v

    @torch.no_grad()
    def peek(self, x):
        return self.forward(x)

    def forward(self, x):
        return self.square(x) * self.w * self.k


class Child(Scaler):
    def __init__(self):
        super().__init__(3)
        self.extra = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        return super().forward(x) + self.extra


m = Child()
print(m)
x = torch.tensor([1.0, 2.0])
y = m(x)
print(y, m.peek(x).requires_grad)
print([n for n, p in m.named_parameters()])
y.sum().backward()
print(m.w.grad, m.extra.grad, isinstance(m, nn.Module), isinstance(m, Scaler), type(m))
m.eval()
print(m.training, m.inner.training)
