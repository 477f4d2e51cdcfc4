# An Enum picks the loss and the activation of a small regression model
from enum import Enum, auto

import torch
import torch.nn as nn


class Loss(Enum):
    MSE = auto()
    L1 = auto()
    HUBER = auto()


class Act(Enum):
    RELU = "relu"
    TANH = "tanh"


ACTIVATIONS = {Act.RELU: nn.ReLU, Act.TANH: nn.Tanh}


def make_loss(kind):
    if kind is Loss.MSE:
        return nn.MSELoss()
    if kind == Loss.L1:
        return nn.L1Loss()
    return nn.HuberLoss(delta=0.5)


torch.manual_seed(0)
x = torch.linspace(-1, 1, 12).unsqueeze(1)
y = x.pow(3) + 0.1
for kind in Loss:
    for act in (Act("tanh"), Act["RELU"]):
        torch.manual_seed(1)
        model = nn.Sequential(nn.Linear(1, 6), ACTIVATIONS[act](), nn.Linear(6, 1))
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        criterion = make_loss(kind)
        for _ in range(20):
            opt.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            opt.step()
        print(f"{kind.name:5s} {act.value:4s} {loss.item():.5f}")

print(list(Loss), len(Act))
print(Loss(2), repr(Act.TANH), Loss.HUBER.value)
print(isinstance(Loss.MSE, Loss), isinstance(Act.RELU, Loss))
try:
    Loss(7)
except ValueError as e:
    print("ValueError:", e)
