# Stochastic weight averaging: keep a running average of the weights seen late in
# training, anneal the learning rate towards a constant with SWALR, then recompute the
# BatchNorm statistics of the averaged copy with update_bn.
import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn

torch.manual_seed(3)
net = nn.Sequential(nn.Linear(2, 5), nn.BatchNorm1d(5), nn.ReLU(), nn.Linear(5, 1)).double()
optimizer = torch.optim.SGD(net.parameters(), lr=0.2, momentum=0.9)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=10)

swa_net = AveragedModel(net)
ema_net = AveragedModel(net, multi_avg_fn=get_ema_multi_avg_fn(0.75))
print(swa_net)
print("averaged so far:", swa_net.n_averaged)

swa_start = 4
swa_scheduler = SWALR(optimizer, swa_lr=0.02, anneal_epochs=3, anneal_strategy="linear")

inputs = torch.randn(16, 2, dtype=torch.float64)
targets = (inputs[:, :1] - 2 * inputs[:, 1:]).tanh()
batches = [(inputs[i : i + 4], targets[i : i + 4]) for i in range(0, 16, 4)]

for epoch in range(8):
    for xb, yb in batches:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(net(xb), yb)
        loss.backward()
        optimizer.step()
    ema_net.update_parameters(net)
    if epoch >= swa_start:
        swa_net.update_parameters(net)
        swa_scheduler.step()
    else:
        scheduler.step()
    lr = optimizer.param_groups[0]["lr"]
    print(f"epoch {epoch}: loss {loss.item():.6f} lr {lr:.5f} n_averaged {int(swa_net.n_averaged)}")

print(swa_net.module[3].weight)
print(ema_net.module[3].bias)
print(list(swa_net.state_dict())[:3])

print("running mean before:", swa_net.module[1].running_mean)
update_bn(batches, swa_net)
print("running mean after: ", swa_net.module[1].running_mean)
print("momentum kept:", swa_net.module[1].momentum)

swa_net.eval()
with torch.no_grad():
    print(swa_net(inputs[:3]))

try:
    SWALR(optimizer, swa_lr=0.1, anneal_strategy="step")
except ValueError as e:
    print("ValueError:", e)
