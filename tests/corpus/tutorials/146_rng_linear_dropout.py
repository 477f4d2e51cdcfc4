import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Dropout(p=0.5), nn.Linear(3, 2))
for name, p in net.named_parameters():
    print(name, p.data)

x = torch.randn(2, 4)
net.train()
out = net(x)
print(out)
net.eval()
print(net(x))
print(net.training, net[2].training)

loss = out.pow(2).sum()
loss.backward()
print(net[0].weight.grad)
