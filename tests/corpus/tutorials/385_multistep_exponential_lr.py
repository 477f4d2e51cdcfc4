# MultiStepLR with milestones and ExponentialLR, the learning rates they produce per epoch.
import torch
from torch.optim.lr_scheduler import ExponentialLR, MultiStepLR

w = torch.zeros(3, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.05)
sched = MultiStepLR(opt, milestones=[2, 5, 7], gamma=0.1)
lrs = []
for epoch in range(9):
    opt.step()
    lrs.append(sched.get_last_lr()[0])
    sched.step()
print(lrs)
print(sched.milestones, sched.last_epoch)

opt2 = torch.optim.Adam([w], lr=0.01)
sched2 = ExponentialLR(opt2, gamma=0.9)
for epoch in range(6):
    opt2.step()
    sched2.step()
    print(epoch, sched2.get_last_lr())
print(opt2.param_groups[0]["initial_lr"])
