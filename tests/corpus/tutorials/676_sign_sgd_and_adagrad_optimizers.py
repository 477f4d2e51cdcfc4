import math
import torch
from torch import nn
from torch.optim.optimizer import Optimizer


class SignSGD(Optimizer):
    def __init__(self, params, lr=0.01, weight_decay=0):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        defaults = dict(lr=lr, weight_decay=weight_decay)
        super(SignSGD, self).__init__(params, defaults)

    def step(self, closure=None):
        loss = None
        if closure is not None:
            loss = closure()
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is None:
                    continue
                d_p = p.grad.data
                if group['weight_decay'] != 0:
                    d_p.add_(p.data, alpha=group['weight_decay'])
                p.data.add_(torch.sign(d_p), alpha=-group['lr'])
        return loss

    def zero_grad(self, set_to_none: bool = True):
        print("zeroing", set_to_none)
        super().zero_grad(set_to_none=set_to_none)


class AdaGradLike(Optimizer):
    def __init__(self, params, lr=0.1, eps=1e-10):
        super().__init__(params, {'lr': lr, 'eps': eps})
        for group in self.param_groups:
            for p in group['params']:
                state = self.state[p]
                state['sum'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                state['step'] = 0

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is None:
                    continue
                state = self.state[p]
                state['step'] += 1
                state['sum'].addcmul_(p.grad, p.grad, value=1)
                std = state['sum'].sqrt().add_(group['eps'])
                p.addcdiv_(p.grad, std, value=-group['lr'])


torch.manual_seed(0)
net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
x = torch.randn(5, 2)
y = torch.randn(5, 1)
for Opt, kw in ((SignSGD, dict(lr=0.01, weight_decay=1e-4)), (AdaGradLike, dict(lr=0.1))):
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
    opt = Opt(model.parameters(), **kw)
    for it in range(3):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        print(type(opt).__name__, it, round(loss.item(), 6))
    print(opt.defaults, len(opt.state), opt.param_groups[0]['lr'])
first = list(model.parameters())[0]
print(opt.state[first]['step'], opt.state[first]['sum'])
print(opt.state_dict()['param_groups'])
try:
    SignSGD(model.parameters(), lr=-1)
except ValueError as e:
    print(e)
print(math.isclose(opt.param_groups[0]['eps'], 1e-10))
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda epoch: 0.5 ** epoch)
for _ in range(2):
    opt.step()
    sched.step()
print(sched.get_last_lr(), opt.param_groups[0]['initial_lr'])
