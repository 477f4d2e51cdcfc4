# Refactoring with nn.Module: weights and bias as nn.Parameters, model.parameters() in the
# update, model.zero_grad() to reset.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(7)
x_train = torch.randn(48, 5)
true_w = torch.randn(5, 3)
y_train = (x_train @ true_w).argmax(dim=1)


class Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(5, 3) / 5**0.5)
        self.bias = nn.Parameter(torch.zeros(3))

    def forward(self, xb):
        return xb @ self.weights + self.bias


model = Logistic()
loss_func = F.cross_entropy
print(f"{loss_func(model(x_train), y_train).item():.4f}")

lr = 0.3
bs = 12


def fit():
    for epoch in range(4):
        for i in range((len(x_train) - 1) // bs + 1):
            xb = x_train[i * bs : i * bs + bs]
            yb = y_train[i * bs : i * bs + bs]
            loss = loss_func(model(xb), yb)
            loss.backward()
            with torch.no_grad():
                for p in model.parameters():
                    p -= p.grad * lr
                model.zero_grad()
        print(epoch, f"{loss.item():.4f}")


fit()
print(f"{loss_func(model(x_train), y_train).item():.4f}")
print((model(x_train).argmax(dim=1) == y_train).float().mean())
print(model.bias.grad)
