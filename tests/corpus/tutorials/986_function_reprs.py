# How torch's functions, classes and methods print, and their names (addresses cut off)
import torch
import torch.nn as nn
import torch.nn.functional as F


def shown(obj):
    return repr(obj).split(" at 0x")[0]


x = torch.ones(2)
for fn in (torch.sin, torch.exp, torch.matmul, F.relu, F.softmax, F.mse_loss, F.linear):
    print(shown(fn))
for fn in (torch.linalg.norm, torch.nn.init.xavier_uniform_, torch.autograd.grad, torch.tanh):
    print(shown(fn), fn.__name__)
print(torch.Tensor.add, shown(torch.Tensor.backward), shown(x.add))
print(x.backward)
print(nn.Linear, nn.MSELoss, torch.optim.SGD, torch.optim.Adam)
print(torch.sin.__name__, torch.sin.__module__, torch.sin.__qualname__)
print(F.relu.__name__, F.relu.__module__, F.relu.__qualname__)
print(nn.Linear.__name__, nn.Linear.__module__, nn.Linear.__qualname__)
print(torch.Tensor.add.__name__, torch.Tensor.add.__qualname__, torch.Tensor.backward.__module__)
print(torch.optim.SGD.__module__, torch.norm.__module__, x.add.__name__)

activations = {"relu": F.relu, "gelu": F.gelu, "sigmoid": torch.sigmoid}
for name, act in activations.items():
    print(name, act.__name__, shown(act), act(torch.tensor([-1.0, 2.0])))


class Block(nn.Module):
    def forward(self, x):
        return x


def step(x):
    return x


print(step.__name__, step.__module__, step.__qualname__, Block.__module__, Block.__qualname__)
