# Tracing a small model with torch.fx and looking at what it recorded.
import torch
import torch.fx
import torch.nn as nn
import torch.nn.functional as F


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(6, 3)
        self.scale = nn.Parameter(torch.ones(3))

    def forward(self, h):
        return F.log_softmax(self.proj(h) * self.scale, dim=-1)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 6), nn.ReLU())
        self.head = Head()

    def forward(self, x, mask):
        h = self.body(x + 0.5)
        n = h.shape[0]
        h = torch.where(mask, h, torch.zeros_like(h))
        return self.head(h), h.mean(dim=0, keepdim=True), -h[:, 1]


torch.manual_seed(0)
net = Net()
gm = torch.fx.symbolic_trace(net)
print(gm.graph)
print(gm.code)
print(gm)
for node in gm.graph.nodes:
    target = node.target if isinstance(node.target, str) else node.target.__name__
    print(f"{node.op:>14} {node.name:<12} {target:<12} {node.args} {node.kwargs}")

x = torch.randn(5, 4)
mask = torch.rand(5, 6) > 0.3
a = gm(x, mask)
b = net(x, mask)
print([torch.equal(p, q) for p, q in zip(a, b)])
print(type(gm).__name__ == "Net", isinstance(gm, nn.Module))
print([name for name, _ in gm.named_parameters()])
