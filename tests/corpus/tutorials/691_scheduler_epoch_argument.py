# Older training scripts pass the epoch to scheduler.step(epoch). PyTorch still accepts it
# (with a deprecation warning) and computes the rate from the schedule's closed form.
import torch
from torch.optim.lr_scheduler import CosineAnnealingLR, LambdaLR, MultiStepLR, StepLR

w = torch.zeros(2, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.5)
sched = StepLR(opt, step_size=2, gamma=0.5)
for epoch in [1, 2, 3, 6, 2]:
    opt.step()
    sched.step(epoch)
    print(f"epoch {epoch}: last_lr={sched.get_last_lr()} group lr={opt.param_groups[0]['lr']}")

# Restarting a schedule by hand, as forum answers suggest.
sched.base_lrs = [0.1]
sched.step(0)
print("restarted:", sched.get_last_lr(), sched.last_epoch)
sched.last_epoch = 3
sched.step()
print("after last_epoch = 3:", sched.last_epoch, sched.get_last_lr())
print(sched.state_dict())

v = torch.zeros(1, requires_grad=True)
opt2 = torch.optim.SGD([v], lr=1.0)
cos = CosineAnnealingLR(opt2, T_max=8, eta_min=0.01)
for epoch in range(0, 10, 3):
    opt2.step()
    cos.step(epoch)
    print("cosine", epoch, cos.get_last_lr())

opt3 = torch.optim.SGD([v], lr=0.3)
multi = MultiStepLR(opt3, milestones=[2, 5], gamma=0.1)
for epoch in (4, 5, 1):
    opt3.step()
    multi.step(epoch)
    print("multistep", epoch, multi.get_last_lr())

# LambdaLR has no closed form: get_lr() is used at the epoch given.
opt4 = torch.optim.SGD([v], lr=2.0)
lam = LambdaLR(opt4, lr_lambda=lambda e: 1 / (e + 1))
for epoch in (3, 7):
    opt4.step()
    lam.step(epoch)
    print("lambda", epoch, lam.get_last_lr())
