import torch


class Plain(torch.optim.Optimizer):
    def __init__(self, params, lr=0.1):
        super().__init__(params, dict(lr=lr))

    def step(self, closure=None):
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is not None:
                    p.data.add_(p.grad, alpha=-group['lr'])


class NoInit(torch.optim.Optimizer):
    def __init__(self, params):
        self.lr = 0.1

    def step(self):
        for g in self.param_groups:
            pass


class NoStep(torch.optim.Optimizer):
    pass


w = torch.ones(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
tries = [
    lambda: Plain([{'lr': 0.1}]),
    lambda: Plain([{'params': [w]}, {'params': [w]}]),
    lambda: Plain([w * 2]),
    lambda: Plain([]),
    lambda: Plain(w),
    lambda: NoInit([w]).step(),
    lambda: NoStep([w], {'lr': 0.1}).step(),
    lambda: Plain([w]).add_param_group({'params': [w]}),
    lambda: Plain([w]).add_param_group([w]),
    lambda: Plain([w], lr=0.1).state[w],
]
for i, t in enumerate(tries):
    try:
        print(i, t())
    except Exception as e:
        print(i, type(e).__name__, e)
opt = Plain([{'params': [w]}, {'params': [b], 'lr': 0.5}])
print(opt)
(w.sum() + b.sum()).backward()
opt.step()
print(w, b)
print(opt.state)
print(opt.state_dict())
m = torch.optim.Optimizer([w], {'lr': 1.0})
print(m)
print(torch.optim.Optimizer)
print(torch.optim.lr_scheduler.LRScheduler)
print(Plain)
