# A parameter summary table with f-string widths: name, shape, count, and the totals.
import torch
from torch import nn


class Classifier(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.hidden = nn.Linear(n_in, n_hidden)
        self.out = nn.Linear(n_hidden, n_out, bias=False)
        self.scale = nn.Parameter(torch.ones(n_out))

    def forward(self, x):
        return self.out(torch.sigmoid(self.hidden(x))) * self.scale


model = Classifier(10, 7, 3)
print(f"{'name':<15}{'shape':<12}{'numel':>6}")
total = 0
for name, p in model.named_parameters():
    print(f"{name:<15}{str(list(p.shape)):<12}{p.numel():>6}")
    total += p.numel()
print(f"{'total':<27}{total:>6}")
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
print(model.out.bias)
print(model)
print(len(list(model.children())), len(list(model.modules())))
