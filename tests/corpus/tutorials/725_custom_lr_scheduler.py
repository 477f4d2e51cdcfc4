import math
import torch
from torch.optim.lr_scheduler import _LRScheduler, LRScheduler


class WarmupCosine(LRScheduler):
    def __init__(self, optimizer, warmup, total, last_epoch=-1):
        self.warmup = warmup
        self.total = total
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self.last_epoch < self.warmup:
            return [base * (self.last_epoch + 1) / self.warmup for base in self.base_lrs]
        progress = (self.last_epoch - self.warmup) / max(1, self.total - self.warmup)
        return [base * 0.5 * (1 + math.cos(math.pi * progress)) for base in self.base_lrs]


class Halving(_LRScheduler):
    def get_lr(self):
        return [group['lr'] * 0.5 if self.last_epoch > 0 else group['lr']
                for group in self.optimizer.param_groups]


w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
opt = torch.optim.SGD([w], lr=0.1)
sched = WarmupCosine(opt, warmup=3, total=8)
print(sched.get_last_lr(), sched.last_epoch, sched.base_lrs)
for step in range(8):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
    sched.step()
    print(step, [round(v, 6) for v in sched.get_last_lr()], round(opt.param_groups[0]['lr'], 6))
print(sched.state_dict())
print(isinstance(sched, LRScheduler), isinstance(sched, WarmupCosine))
opt2 = torch.optim.SGD([w], lr=1.0)
h = Halving(opt2)
for _ in range(3):
    opt2.step()
    h.step()
print(h.get_last_lr())
print(w)
