# Dropout in a Module subclass: what model.train()/model.eval() change, the training flag of
# every submodule, and F.dropout with training=self.training.
import torch
import torch.nn.functional as F
from torch import nn


class Net(nn.Module):
    def __init__(self, p=0.3):
        super().__init__()
        self.fc1 = nn.Linear(5, 10)
        self.drop = nn.Dropout(p=p)
        self.fc2 = nn.Linear(10, 1)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = self.drop(x)
        x = F.dropout(x, p=0.2, training=self.training)
        return self.fc2(x)


torch.manual_seed(10)
model = Net()
x = torch.randn(4, 5)
print(model.training, model.drop.training)
print(model(x).squeeze())
model.eval()
print(model.training, [m.training for m in model.modules()])
with torch.no_grad():
    print(model(x).squeeze())
model.train()
print(model.drop.training)
print(model.drop, model.drop.p)
d = nn.Dropout(p=0.25)
print(d(torch.ones(2, 6)))
print(d.eval()(torch.ones(2, 3)))
