# LambdaLR: a linear warm-up then decay, written as a def and as a lambda; one lambda per
# parameter group.
import torch
from torch import nn
from torch.optim.lr_scheduler import LambdaLR

model = nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.2)
warmup = 3


def lr_lambda(epoch):
    if epoch < warmup:
        return float(epoch + 1) / warmup
    return 0.8 ** (epoch - warmup)


scheduler = LambdaLR(optimizer, lr_lambda=lr_lambda)
for epoch in range(8):
    optimizer.step()
    print(epoch, round(optimizer.param_groups[0]["lr"], 6))
    scheduler.step()

groups = [{"params": model[0].parameters()}, {"params": model[2].parameters(), "lr": 0.05}]
opt = torch.optim.SGD(groups, lr=0.1)
sched = LambdaLR(opt, lr_lambda=[lambda e: 0.95**e, lambda e: 1 / (e + 1)])
for epoch in range(4):
    opt.step()
    sched.step()
    print(sched.get_last_lr())
print(sched.base_lrs)
