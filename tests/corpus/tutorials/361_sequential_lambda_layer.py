# A Lambda module wrapping a function, used inside nn.Sequential to reshape and to pool.
import torch
from torch import nn


class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


def preprocess(x):
    return x.view(-1, 2, 3)


torch.manual_seed(21)
model = nn.Sequential(
    Lambda(preprocess),
    nn.Linear(3, 4),
    nn.Tanh(),
    Lambda(lambda x: x.mean(dim=1)),
    nn.Linear(4, 2),
)
x = torch.randn(5, 6)
out = model(x)
print(out.shape)
print(out)
print(model)
print(sum(p.numel() for p in model.parameters()))
