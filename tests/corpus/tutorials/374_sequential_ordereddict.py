# nn.Sequential built from an OrderedDict: layers reachable by name and by index.
from collections import OrderedDict

import torch
import torch.nn as nn

torch.manual_seed(9)
model = nn.Sequential(
    OrderedDict(
        [
            ("fc1", nn.Linear(4, 6)),
            ("relu1", nn.ReLU()),
            ("fc2", nn.Linear(6, 2)),
            ("softmax", nn.Softmax(dim=1)),
        ]
    )
)
print(model)
print(model.fc1.weight.shape, model[2].bias.shape)
print(model.fc2 is model[2])
x = torch.randn(3, 4)
probs = model(x)
print(probs)
print(probs.sum(dim=1))
for name, module in model.named_children():
    print(name, type(module).__name__)
print(list(model.state_dict().keys()))
