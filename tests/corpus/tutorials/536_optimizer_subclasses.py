# Extending torch's own optimizers and schedulers by subclassing them, as training code
# does to add logging, gradient clipping or a warm-up.
import torch
import torch.nn as nn


class ClippedSGD(torch.optim.SGD):
    """SGD that clips every gradient before the usual update."""

    def __init__(self, params, lr=0.1, momentum=0.9, max_norm=1.0):
        super().__init__(params, lr=lr, momentum=momentum)
        self.max_norm = max_norm
        self.updates = 0

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    p.grad.clamp_(-self.max_norm, self.max_norm)
        loss = super().step(closure)
        self.updates += 1
        return loss


torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = ClippedSGD(model.parameters(), lr=0.05, max_norm=0.5)
x = torch.randn(8, 3)
y = x.sum(dim=1, keepdim=True)
for epoch in range(4):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    print(epoch, round(loss.item(), 4))
print(opt.updates, opt.max_norm)
print(isinstance(opt, torch.optim.SGD), isinstance(opt, torch.optim.Optimizer))
print(isinstance(opt, ClippedSGD), isinstance(opt, torch.optim.Adam))
print(issubclass(ClippedSGD, torch.optim.SGD), type(opt).__name__)
print(opt.state_dict()["param_groups"][0]["momentum"])
print(opt)


class LoggedAdam(torch.optim.Adam):
    pass  # no methods of its own: Adam's __init__ and step


w = torch.tensor([1.0, -1.0], requires_grad=True)
adam = LoggedAdam([w], lr=0.1)
for _ in range(3):
    adam.zero_grad()
    (w ** 2).sum().backward()
    adam.step()
print(w)
print(adam.state[w]["step"], adam.state[w]["exp_avg"])


class WarmupThenConstant(torch.optim.lr_scheduler.LambdaLR):
    def __init__(self, optimizer, warmup_steps):
        self.warmup_steps = warmup_steps
        super().__init__(optimizer, lr_lambda=self.factor)

    def factor(self, step):
        return min(1.0, (step + 1) / self.warmup_steps)


w2 = torch.zeros(2, requires_grad=True)
sgd = torch.optim.SGD([w2], lr=1.0)
sched = WarmupThenConstant(sgd, 3)
for i in range(5):
    sgd.step()
    sched.step()
    print(i, sched.get_last_lr(), sched.last_epoch)
print(isinstance(sched, torch.optim.lr_scheduler.LambdaLR))
print(isinstance(sched, torch.optim.lr_scheduler.LRScheduler))
print(sorted(k for k in sched.state_dict() if not k.startswith("_")))


class HalvingStep(torch.optim.lr_scheduler.StepLR):
    def get_lr(self):
        lrs = super().get_lr()
        return [lr * 1.0 for lr in lrs]


sgd2 = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.8)
halving = HalvingStep(sgd2, step_size=2, gamma=0.5)
for i in range(5):
    sgd2.step()
    halving.step()
    print(halving.get_last_lr(), halving.gamma, halving.step_size)
print(issubclass(HalvingStep, torch.optim.lr_scheduler.LRScheduler))
print(issubclass(LoggedAdam, torch.optim.Optimizer), issubclass(LoggedAdam, torch.optim.SGD))
print(isinstance(halving, torch.optim.lr_scheduler.ExponentialLR))
