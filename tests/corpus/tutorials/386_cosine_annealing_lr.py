# CosineAnnealingLR from lr=0.1 down to eta_min over T_max epochs and back up, each epoch's
# learning rate printed with a format spec.
import torch
import torch.optim as optim

model = torch.nn.Linear(4, 2)
optimizer = optim.SGD(model.parameters(), lr=0.1)
scheduler = optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=8, eta_min=0.001)
for epoch in range(20):
    optimizer.step()
    scheduler.step()
    print(f"epoch {epoch:2d}: lr = {scheduler.get_last_lr()[0]:.6f}")
print(scheduler.get_last_lr())

opt = optim.SGD(model.parameters(), lr=1.0)
sched = optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4)
values = []
for epoch in range(6):
    opt.step()
    sched.step()
    values.append(opt.param_groups[0]["lr"])
print(values)
