# PReLU learns the slope of its negative side: one shared slope, or one per channel of a
# conv feature map, trained a few SGD steps, then the functional form on a plain vector.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
act = nn.PReLU()
print(act, act.weight)
x = torch.linspace(-2, 2, 5, requires_grad=True)
y = act(x)
print(y)
y.sum().backward()
print(x.grad, act.weight.grad)

net = nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.PReLU(2, init=0.1))
print(net)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
img = torch.randn(4, 1, 5, 5)
for step in range(3):
    opt.zero_grad()
    loss = net(img).mean()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}", net[1].weight.data)

print(F.prelu(torch.tensor([-3.0, -0.5, 0.0, 2.0]), torch.tensor([0.2])))
