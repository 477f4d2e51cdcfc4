# Classes named by the module that defines them, as scripts and stack traces spell them.
import torch
import torch.nn.modules as modules
from torch.nn.parameter import Parameter
from torch.nn.modules.loss import MSELoss, L1Loss
from torch.nn.modules.activation import ReLU
from torch.optim.adam import Adam
from torch.optim.sgd import SGD

torch.manual_seed(0)
layer = torch.nn.modules.linear.Linear(3, 2)
scale = torch.nn.parameter.Parameter(torch.tensor([[0.5, -1.0]]))
act = ReLU()
opt = Adam(list(layer.parameters()) + [scale], lr=0.1)
print(isinstance(scale, Parameter), isinstance(layer, modules.Linear), type(opt).__name__)
x = torch.randn(4, 3)
y = torch.randn(4, 2)
for step in range(3):
    opt.zero_grad()
    loss = MSELoss()(act(layer(x)) * scale, y) + L1Loss()(scale, torch.zeros(1, 2))
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
print(scale)
print(type(SGD([scale], lr=0.1)).__name__, modules.conv.Conv2d(1, 2, 3))
