import torch
import torch.nn as nn


class Affine(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(n))
        self.bias = nn.Parameter(torch.zeros(n))
        self.scale = 2.0

    def forward(self, x):
        return self.scale * (x * self.weight + self.bias)


m = Affine(3)
print(m)
for name, p in m.named_parameters():
    print(name, p.shape, p.requires_grad)

x = torch.tensor([1.0, -1.0, 0.5])
out = m(x).pow(2).sum()
out.backward()
print(m.weight.grad)
print(m.bias.grad)
m.zero_grad()
print(m.weight.grad)
print(sum(p.numel() for p in m.parameters()))
print(isinstance(m.weight, nn.Parameter), isinstance(m.weight, torch.Tensor))
