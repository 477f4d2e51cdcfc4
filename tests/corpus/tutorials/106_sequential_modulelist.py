import torch
import torch.nn as nn

torch.manual_seed(0)


class Stack(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])])
        self.act = nn.ReLU()

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = self.act(x)
        return x


net = Stack([2, 4, 3, 1])
print(len(net.layers))
print([tuple(p.shape) for p in net.parameters()])
x = torch.tensor([[0.5, -1.0]])
print(net(x))

seq = nn.Sequential(nn.Linear(2, 2), nn.Sigmoid())
print(seq)
print(seq[0].weight.shape, len(seq))
print(seq(x))
