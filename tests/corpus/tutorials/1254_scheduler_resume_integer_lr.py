# Resuming a step-decay schedule from a checkpoint when the optimizer was built with an integer
# learning rate (lr=1): the saved learning rates are floats by then.
import torch

torch.manual_seed(3)
w = torch.randn(2, requires_grad=True)
opt = torch.optim.SGD([w], lr=1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
for epoch in range(7):
    opt.zero_grad()
    (w**2).sum().backward()
    opt.step()
    sched.step()
    print(epoch, sched.get_last_lr(), opt.param_groups[0]["lr"])
saved = sched.state_dict()
print(saved)

w2 = torch.randn(2, requires_grad=True)
opt2 = torch.optim.SGD([w2], lr=1)
resumed = torch.optim.lr_scheduler.StepLR(opt2, step_size=3, gamma=0.5)
resumed.load_state_dict(saved)
print("resumed at", resumed.last_epoch, resumed.get_last_lr(), resumed.base_lrs)
for epoch in range(7, 10):
    opt2.step()
    resumed.step()
    print(epoch, resumed.get_last_lr(), opt2.param_groups[0]["lr"])

multi = torch.optim.lr_scheduler.MultiStepLR(
    torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=2), milestones=[1], gamma=0.25
)
multi.load_state_dict({**multi.state_dict(), "_last_lr": [0.5], "base_lrs": [4.0]})
print(multi.get_last_lr(), multi.base_lrs)
