# Learning-rate schedules written by hand: a warm-up-then-cosine generator that yields one
# rate per step, and a step-decay scheduler class that sets the optimizer's rate.
import math

import torch


def warmup_cosine(base_lr, warmup, total):
    for step in range(total):
        if step < warmup:
            yield base_lr * (step + 1) / warmup
        else:
            progress = (step - warmup) / max(1, total - warmup)
            yield 0.5 * base_lr * (1 + math.cos(math.pi * progress))


print([round(lr, 4) for lr in warmup_cosine(0.1, 3, 10)])


class StepDecay:
    def __init__(self, optimizer, step_size, gamma=0.5):
        self.optimizer = optimizer
        self.step_size = step_size
        self.gamma = gamma
        self.epoch = 0

    @property
    def lr(self):
        return self.optimizer.param_groups[0]["lr"]

    def step(self):
        self.epoch += 1
        if self.epoch % self.step_size == 0:
            for group in self.optimizer.param_groups:
                group["lr"] = group["lr"] * self.gamma


torch.manual_seed(2)
w = torch.randn(3, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.2)
sched = StepDecay(opt, step_size=2)
for epoch in range(6):
    opt.zero_grad()
    loss = (w**2).sum()
    loss.backward()
    opt.step()
    sched.step()
    print(epoch, f"{loss.item():.5f}", sched.lr)

opt2 = torch.optim.SGD([w], lr=0.1)
for step, lr in enumerate(warmup_cosine(0.1, 2, 5)):
    for group in opt2.param_groups:
        group["lr"] = lr
    opt2.zero_grad()
    loss = (w**2).sum()
    loss.backward()
    opt2.step()
    print(step, round(lr, 4), f"{loss.item():.5f}")
