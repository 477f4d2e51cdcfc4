# Per-sample computations with vmap over a network that has BatchNorm: the functorch way is to
# stop the BatchNorm layers from tracking running statistics first.
import torch
import torch.nn as nn
from torch.func import vmap, replace_all_batch_norm_modules_

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 4)
        self.bn = nn.BatchNorm1d(4)
        self.norm = nn.InstanceNorm1d(4, track_running_stats=True)

    def forward(self, x):
        return torch.relu(self.bn(self.fc(x)))


model = nn.Sequential(Block(), nn.Linear(4, 2), nn.BatchNorm1d(2, affine=False))
print(sorted(model.state_dict().keys()))
same = replace_all_batch_norm_modules_(model)
print(same is model)
print(model[0].bn, model[0].bn.running_mean, model[0].bn.num_batches_tracked)
print(model[0].norm.track_running_stats, model[2].track_running_stats)
print(sorted(model.state_dict().keys()))

x = torch.randn(5, 6, 3, dtype=torch.float64)
model = model.double()
out = vmap(model)(x)
print(out.shape)
print(out[0])
print(out.pow(2).mean(dim=1))
