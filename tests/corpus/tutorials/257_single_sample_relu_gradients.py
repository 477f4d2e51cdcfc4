# One sample through a small ReLU network: the weight gradients of dead units are signed zeros,
# printed as PyTorch prints them.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
sample = torch.tensor([[-1.0, 2.0, -3.0]])
net(sample).sum().backward()
print(net[0].weight.grad)
print(net[2].weight.grad, net[0].bias.grad)

net.zero_grad()
net(sample[0]).sum().backward()  # a 1-D input
print(net[0].weight.grad)

w = torch.tensor([[1.0, 2.0]], requires_grad=True)
y = F.linear(torch.tensor([3.0, 4.0]), w)
y.backward(torch.tensor([-0.0]))
print(w.grad)
v = torch.tensor([[0.5, -1.0], [2.0, 0.0]], requires_grad=True)
out = torch.tensor([[-2.0, 3.0]]) @ v
out.backward(torch.tensor([[-0.0, 1.0]]))
print(v.grad)
