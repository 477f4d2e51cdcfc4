import torch
import torch.nn as nn


class PairScorer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.scale = nn.Parameter(torch.tensor(1.0))
        self.heads = nn.ModuleList([nn.Bilinear(dim, dim, 1) for _ in range(heads)])
        for head in self.heads:
            nn.init.constant_(head.weight, 0.1)
            nn.init.zeros_(head.bias)

    def forward(self, a, b):
        scores = torch.cat([h(a, b) for h in self.heads], dim=1)
        return self.scale * scores.sum(dim=1)


model = PairScorer(dim=2, heads=3)
print(model)
a = torch.tensor([[1.0, 2.0], [0.5, -1.0]])
b = torch.tensor([[0.0, 1.0], [2.0, 2.0]])
out = model(a, b)
print(out)
out.sum().backward()
print(model.scale.grad)
print(model.heads[0].weight.grad)
print([n for n, _ in model.named_parameters()])
