import torch
from torch.optim import Optimizer


class MyAdam(Optimizer):
    """A hand-written Adam."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8):
        defaults = dict(lr=lr, betas=betas, eps=eps)
        super(MyAdam, self).__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('amsgrad', False)

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            beta1, beta2 = group['betas']
            for p in group['params']:
                if p.grad is None:
                    continue
                grad = p.grad
                state = self.state[p]
                if len(state) == 0:
                    state['step'] = 0
                    state['exp_avg'] = torch.zeros_like(p)
                    state['exp_avg_sq'] = torch.zeros_like(p)
                exp_avg, exp_avg_sq = state['exp_avg'], state['exp_avg_sq']
                state['step'] += 1
                exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                bias1 = 1 - beta1 ** state['step']
                bias2 = 1 - beta2 ** state['step']
                denom = (exp_avg_sq.sqrt() / bias2 ** 0.5).add_(group['eps'])
                p.data.addcdiv_(exp_avg, denom, value=-group['lr'] / bias1)
        return loss


torch.manual_seed(0)
x = torch.linspace(-1, 1, 8).unsqueeze(1)
y = 3 * x - 0.5
model = torch.nn.Linear(1, 1)
opt = MyAdam(model.parameters(), lr=0.1)
print(opt)


def closure():
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    return loss


for epoch in range(5):
    loss = opt.step(closure)
    print(f"epoch {epoch}: loss {loss.item():.6f}")
print(model.weight, model.bias)
print(opt.state[model.weight]['step'])
sd = opt.state_dict()
print(sd['param_groups'])
opt2 = MyAdam(model.parameters(), lr=0.5)
opt2.load_state_dict(sd)
print(opt2.param_groups[0]['lr'], opt2.param_groups[0]['amsgrad'])
print(opt2.state[model.bias]['step'])
opt.zero_grad(set_to_none=False)
print(model.weight.grad)
opt.zero_grad()
print(model.weight.grad)
extra = torch.zeros(2, requires_grad=True)
opt.add_param_group({'params': [extra], 'lr': 0.01})
print(len(opt.param_groups), opt.param_groups[1]['betas'])
print(opt)
print(isinstance(opt, Optimizer), isinstance(opt, MyAdam), issubclass(MyAdam, Optimizer))
print(type(opt).__name__)
