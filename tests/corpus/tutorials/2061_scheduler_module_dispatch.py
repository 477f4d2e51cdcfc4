# Telling PyTorch's schedulers from one's own by the module a class comes from, as training
# loops in course notebooks do (`sched.__module__ == lr_scheduler.__name__`), and the
# `__name__` of the torch modules themselves.
import torch
from torch import nn
from torch.optim import lr_scheduler
import torch.nn.functional as F

print(lr_scheduler.__name__, torch.optim.__name__, nn.__name__, F.__name__, torch.__name__)


class InverseSqrt:
    def __init__(self, base):
        self.base = base

    def __call__(self, epoch):
        return self.base / (epoch + 1) ** 0.5


torch.manual_seed(3)
x = torch.linspace(-1, 1, 12, dtype=torch.float64).unsqueeze(1)
y = 3 * x - 0.5


def train(schedule, epochs=4):
    model = nn.Linear(1, 1).double()
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    sched = schedule(opt) if schedule is not None else None
    for epoch in range(epochs):
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if sched is not None:
            if sched.__module__ == lr_scheduler.__name__:
                sched.step()
                kind = "torch"
            else:
                for group in opt.param_groups:
                    group["lr"] = sched(epoch)
                kind = sched.__module__
        else:
            kind = "none"
        print(kind, epoch, round(loss.item(), 6), round(opt.param_groups[0]["lr"], 6))


train(None, 2)
train(lambda opt: lr_scheduler.StepLR(opt, step_size=2, gamma=0.5))
train(lambda opt: InverseSqrt(0.3))

sched = lr_scheduler.ExponentialLR(torch.optim.Adam([torch.zeros(1, requires_grad=True)]), 0.9)
print(type(sched).__name__, sched.__module__, sched.optimizer.__module__)
print(nn.Linear(2, 2).__module__, nn.Sequential().__module__, InverseSqrt(1).__module__)
try:
    print((1.5).__module__)
except AttributeError as e:
    print("AttributeError:", e)
print(nn.Module.__module__, torch.optim.Optimizer.__module__)
print(lr_scheduler.LRScheduler.__qualname__, nn.Linear(1, 1).__class__.__module__)
