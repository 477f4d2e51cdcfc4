# nn.LazyLinear learns its input width at its first call: until then it prints in_features=0
# and holds uninitialized parameters; the call draws them (so the random stream is used
# there, not at construction) and the layer becomes an ordinary nn.Linear.
import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(1, bias=False))
print(net)
print([p for p in net.parameters()])
print(net.state_dict())

# an optimizer may be made before the first call: it holds the same parameter objects
opt = torch.optim.SGD(net.parameters(), lr=0.1)

extra = torch.rand(2)  # drawn before the layers' weights
X = torch.arange(6.0).reshape(2, 3) / 6
y = net(X)
print(net)
print(type(net[0]) == nn.Linear, isinstance(net[2], nn.Linear), net[0].in_features)
print([(name, p.shape) for name, p in net.named_parameters()])
print(net[0].weight)
print(y)


def init_constant(m):
    if type(m) == nn.Linear:
        nn.init.constant_(m.weight, 0.5)
        if m.bias is not None:
            nn.init.zeros_(m.bias)


net.apply(init_constant)
for step in range(3):
    opt.zero_grad()
    loss = ((net(X) - 1.0) ** 2).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
print(net[2].weight)


# a lazy layer in double precision, inside a module
class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.LazyLinear(2, dtype=torch.float64)

    def forward(self, x):
        return torch.tanh(self.body(x))


h = Head()
print(h)
out = h(torch.ones(1, 5, dtype=torch.float64))
print(h, out.dtype, out.shape)
