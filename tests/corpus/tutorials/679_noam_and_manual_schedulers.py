import torch
from torch.optim.lr_scheduler import _LRScheduler


class NoamLR(_LRScheduler):
    def __init__(self, optimizer, warmup_steps, last_epoch=-1):
        self.optimizer = optimizer
        self.warmup_steps = warmup_steps
        self._rate = 0.0
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        step = max(1, self.last_epoch)
        scale = self.warmup_steps ** 0.5 * min(step ** (-0.5), step * self.warmup_steps ** (-1.5))
        self._rate = scale
        return [base_lr * scale for base_lr in self.base_lrs]


class Manual(_LRScheduler):
    def step(self, epoch=None):
        self.last_epoch += 1
        for g in self.optimizer.param_groups:
            g['lr'] = 0.1 / (self.last_epoch + 1)
        self._last_lr = [g['lr'] for g in self.optimizer.param_groups]


w = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.Adam([w], lr=1.0)
s = NoamLR(opt, warmup_steps=4)
for i in range(6):
    opt.step()
    s.step()
    print(i, round(s.get_last_lr()[0], 6), round(s._rate, 6), s._step_count)
opt2 = torch.optim.SGD([w], lr=0.1)
m = Manual(opt2)
for i in range(3):
    opt2.step()
    m.step()
    print(m.get_last_lr(), m.last_epoch)
print(sorted(s.state_dict()))
