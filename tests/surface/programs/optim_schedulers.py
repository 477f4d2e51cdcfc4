# StepLR and ExponentialLR set the learning rate an SGD step reads.
import torch

w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.5)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
for epoch in range(8):
    opt.zero_grad()
    loss = (w**2).sum()
    loss.backward()
    opt.step()
    sched.step()
    print(epoch, sched.get_last_lr(), loss.item())
u = torch.tensor([0.3, 0.7], requires_grad=True)
opt2 = torch.optim.SGD([u], lr=0.1, momentum=0.5, dampening=0.25, maximize=True)
sched2 = torch.optim.lr_scheduler.ExponentialLR(opt2, gamma=0.9)
for epoch in range(6):
    opt2.zero_grad()
    gain = -((u - 1) ** 2).sum()
    gain.backward()
    opt2.step()
    sched2.step()
    print(epoch, opt2.param_groups[0]["lr"], u)
opt2.zero_grad(set_to_none=False)
print(u.grad)
