# Layers built by subclassing torch's own modules: a masked (pruned) linear layer, a residual
# linear, an MLP that is an nn.Sequential, blocks kept in an nn.ModuleList subclass.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedLinear(nn.Linear):
    def __init__(self, in_features, out_features, mask):
        super().__init__(in_features, out_features)
        self.register_buffer("mask", mask)

    def forward(self, x):
        return F.linear(x, self.weight * self.mask, self.bias)


class Residual(nn.Linear):
    def forward(self, x):
        return x + super().forward(x)


class MLP(nn.Sequential):
    def __init__(self, *sizes):
        layers = []
        for a, b in zip(sizes[:-1], sizes[1:]):
            layers.append(nn.Linear(a, b))
            layers.append(nn.ReLU())
        super().__init__(*layers[:-1])


class Stack(nn.ModuleList):
    def forward(self, x):
        for block in self:
            x = torch.tanh(block(x))
        return x


torch.manual_seed(0)
mask = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
layer = MaskedLinear(3, 2, mask)
x = torch.randn(5, 3)
loss = layer(x).pow(2).mean()
loss.backward()
print(layer)
print(layer.weight.grad)  # zero where the mask is
print(isinstance(layer, nn.Linear), [n for n, _ in layer.named_buffers()])

res = Residual(3, 3)
print(res(x).sum(dim=1))
mlp = MLP(3, 4, 1)
print(mlp)
print(len(mlp), mlp[0].out_features, mlp(x).squeeze(1))
stack = Stack([Residual(3, 3) for _ in range(2)])
out = stack(x).sum()
out.backward()
print(stack, stack[1].weight.grad.abs().sum())
