# Restoring BatchNorm layers from a checkpoint without the num_batches_tracked counter (one
# saved by an old PyTorch, or rebuilt key by key), and from a state dict as saved.
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
net(torch.randn(8, 3))
state = net.state_dict()
print(list(state), state["1.num_batches_tracked"])

old_style = {k: v for k, v in state.items() if not k.endswith("num_batches_tracked")}
fresh = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
print(fresh.load_state_dict(old_style), fresh[1].num_batches_tracked)
print(torch.equal(fresh[1].running_mean, net[1].running_mean))

renamed = {"module." + k: v for k, v in state.items()}
stripped = {k[len("module.") :]: v for k, v in renamed.items()}
print(fresh.load_state_dict(stripped), fresh[1].num_batches_tracked)

for name, sd in (("deepcopy", copy.deepcopy(state)), ("copy", state.copy())):
    del sd["1.num_batches_tracked"]
    try:
        print(name, fresh.load_state_dict(sd))
    except RuntimeError as e:
        print(name, "RuntimeError:", e)

torch.save(state, "ckpt.pt")
loaded = torch.load("ckpt.pt")
loaded.pop("1.num_batches_tracked")
print(fresh.load_state_dict(loaded, strict=False))
