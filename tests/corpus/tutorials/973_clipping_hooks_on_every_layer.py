# Gradient clipping written as tensor hooks that clamp the gradient in place, registered on
# every parameter of a small convolutional network (conv, batch norm, layer norm, embedding,
# linear): each parameter's gradient is one its layer's backward makes for it alone, so the
# clamp lands in .grad. A second model keeps a name on each layer (`layer.__name__ = name`)
# for a forward hook to print, as hook tutorials do.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, kernel_size=3, padding=1)
        self.bn = nn.BatchNorm2d(3)
        self.pool = nn.MaxPool2d(2)
        self.norm = nn.LayerNorm(12)
        self.emb = nn.Embedding(4, 12)
        self.head = nn.Linear(12, 2)

    def forward(self, x, ids):
        h = self.pool(F.relu(self.bn(self.conv(x))))
        h = h.flatten(1)
        h = self.norm(h) + self.emb(ids)
        return self.head(F.gelu(h))


model = Tiny()
limit = 0.05
for name, p in model.named_parameters():
    p.register_hook(lambda grad: grad.clamp_(-limit, limit))

x = torch.randn(4, 2, 4, 4)
ids = torch.tensor([0, 3, 1, 3])
target = torch.tensor([0, 1, 1, 0])
loss = F.cross_entropy(model(x, ids), target)
loss.backward()
for name, p in model.named_parameters():
    g = p.grad
    print(f"{name:12s} max |grad| = {g.abs().max().item():.4f}  at the limit: {(g.abs() == limit).sum().item()}")
print(model.emb.weight.grad[3])
print(model.bn.weight.grad)

# Doubling in place, on parameters reached through a batched matmul and a softmax.
a = torch.randn(2, 3, 4, requires_grad=True)
b = torch.randn(2, 4, 3, requires_grad=True)
skip = torch.zeros(2, 3, 3, requires_grad=True)


def double(grad):
    grad *= 2


a.register_hook(double)
out = torch.softmax(torch.bmm(a, b), dim=-1) + skip
(out * torch.arange(18.0).view(2, 3, 3)).sum().backward()
print(a.grad[0])
print(skip.grad[1])

# A name kept on each layer, read by a forward hook.
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
for name, layer in net.named_modules():
    layer.__name__ = name or "net"
    layer.register_forward_hook(lambda m, inp, out: print(f"{m.__name__}: {tuple(out.shape)}"))
net(torch.ones(2, 3))
print(net[0].__name__, hasattr(net[2], "__name__"))
