import torch
from torch.optim.optimizer import Optimizer, required


class PlainSGD(Optimizer):
    def __init__(self, params, lr=required, momentum=0):
        if lr is not required and lr < 0.0:
            raise ValueError("Invalid learning rate: {}".format(lr))
        super().__init__(params, dict(lr=lr, momentum=momentum))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is not None:
                    p.add_(p.grad, alpha=-group['lr'])


w = torch.tensor([1.0, -1.0], requires_grad=True)
b = torch.tensor([0.5], requires_grad=True)
print(required)
try:
    PlainSGD([w])
except ValueError as e:
    print("ValueError:", e)
opt = PlainSGD([{'params': [w], 'lr': 0.1}, {'params': [b], 'lr': 0.5}])
print(opt)
(w.pow(2).sum() + b.sum()).backward()
opt.step()
print(w, b)
try:
    opt.add_param_group({'params': [torch.zeros(1, requires_grad=True)]})
except ValueError as e:
    print("ValueError:", e)
print(len(opt.param_groups), opt.defaults)
