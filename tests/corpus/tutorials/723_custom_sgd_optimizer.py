import torch

class MySGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.1, momentum=0.0):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        defaults = dict(lr=lr, momentum=momentum)
        super().__init__(params, defaults)

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is None:
                    continue
                d_p = p.grad
                if group['momentum'] != 0:
                    state = self.state[p]
                    if 'momentum_buffer' not in state:
                        buf = state['momentum_buffer'] = torch.clone(d_p).detach()
                    else:
                        buf = state['momentum_buffer']
                        buf.mul_(group['momentum']).add_(d_p)
                    d_p = buf
                p.add_(d_p, alpha=-group['lr'])
        return loss

torch.manual_seed(0)
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
opt = MySGD([w], lr=0.1, momentum=0.9)
print(opt)
for i in range(3):
    opt.zero_grad()
    loss = (w ** 2).sum()
    loss.backward()
    opt.step()
    print(i, loss.item(), w)
print(opt.state[w])
print(opt.state_dict())
print(opt.param_groups[0]['lr'])
print(isinstance(opt, torch.optim.Optimizer))
print(type(opt))
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
for i in range(2):
    opt.zero_grad()
    loss = (w ** 2).sum()
    loss.backward()
    opt.step()
    sched.step()
    print(sched.get_last_lr())
print(opt.defaults)
