# Older code collects several models' weights into one dict by handing state_dict a
# destination (and a prefix) -- positionally, as PyTorch 1.x examples did; PyTorch still
# fills and returns that dict, with a FutureWarning.
from collections import OrderedDict

import torch
import torch.nn as nn

torch.manual_seed(11)
encoder = nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Linear(2, 2))
head = nn.Linear(2, 1)

bundle = OrderedDict()
encoder.state_dict(bundle, "encoder.")
head.state_dict(destination=bundle, prefix="head.")
for name, t in bundle.items():
    print(name, tuple(t.shape), t.requires_grad)

live = head.state_dict({}, "", True)
print(live["weight"] is head.weight)

copy = nn.Linear(2, 1)
copy.load_state_dict({k[len("head."):]: v for k, v in bundle.items() if k.startswith("head.")})
print(torch.equal(copy.weight, head.weight), copy.bias)
