# d2l's dropout from scratch: a mask from torch.rand compared with the rate, then the
# concise version with nn.Dropout that only drops in training mode.
import torch
from torch import nn


def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1:
        return torch.zeros_like(X)
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)


torch.manual_seed(0)
X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print("dropout_p = 0:", dropout_layer(X, 0))
print("dropout_p = 0.5:", dropout_layer(X, 0.5))
print("dropout_p = 1:", dropout_layer(X, 1))

net = nn.Sequential(nn.Flatten(), nn.Linear(8, 6), nn.ReLU(), nn.Dropout(0.5), nn.Linear(6, 2))
print(net)
net.train()
out1 = net(X)
out2 = net(X)
print(torch.equal(out1, out2))
net.eval()
print(torch.equal(net(X), net(X)))
print(net(X))
