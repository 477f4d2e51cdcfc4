# The learning-rate scheduler warns when it steps before the optimizer has stepped since the
# scheduler was made (steps taken before it do not count).
import warnings

import torch

w = torch.nn.Parameter(torch.tensor([1.0, -1.0]))
opt = torch.optim.SGD([w], lr=0.5)
for _ in range(2):  # warm-up steps before any scheduler exists
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()

sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.1)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    sched.step()
print(len(caught), [str(c.message)[:60] for c in caught])
print(sched.get_last_lr(), w)

# the usual order: the optimizer first, then the scheduler: no warning
opt2 = torch.optim.SGD([w], lr=0.5)
sched2 = torch.optim.lr_scheduler.ExponentialLR(opt2, gamma=0.5)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for _ in range(3):
        opt2.zero_grad()
        (w ** 2).sum().backward()
        opt2.step()
        sched2.step()
print(len(caught), sched2.get_last_lr(), w.data)
