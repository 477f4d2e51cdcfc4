# A warm-up scheduler in the style many projects copy: get_lr warns when it is called from
# outside step(), which the base tells it through _get_lr_called_within_step.
import warnings

import torch
from torch.optim.lr_scheduler import StepLR, _LRScheduler


class LinearWarmup(_LRScheduler):
    def __init__(self, optimizer, warmup_steps, last_epoch=-1):
        self.warmup_steps = warmup_steps
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if not self._get_lr_called_within_step:
            warnings.warn("use get_last_lr() for the rate in use")
        scale = min(1.0, (self.last_epoch + 1) / self.warmup_steps)
        return [base * scale for base in self.base_lrs]


class HalvingStep(StepLR):
    def get_lr(self):
        print("  within step:", self._get_lr_called_within_step, "epoch", self.last_epoch)
        return super().get_lr()


w = torch.nn.Parameter(torch.ones(3))
opt = torch.optim.SGD([w], lr=0.4)
sched = LinearWarmup(opt, warmup_steps=4)
for epoch in range(6):
    loss = (w * torch.arange(3.0)).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    print(epoch, round(opt.param_groups[0]["lr"], 4), sched.get_last_lr())
print("flag outside step:", sched._get_lr_called_within_step)
print(sched.state_dict()["_get_lr_called_within_step"])

opt2 = torch.optim.SGD([torch.nn.Parameter(torch.zeros(2))], lr=1.0)
halving = HalvingStep(opt2, step_size=2, gamma=0.5)
for _ in range(4):
    opt2.step()
    halving.step()
print(halving.get_last_lr(), w)
