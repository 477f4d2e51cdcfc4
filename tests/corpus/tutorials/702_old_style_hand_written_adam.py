# Optimizers written the way older tutorials wrote them: the state made by hand in __init__
# (`self.state = dict()`), Adam's moments updated with the deprecated overloads
# `add_(alpha, t)`, `addcmul_(value, t1, t2)`, `addcdiv_(value, t1, t2)`, and a noise schedule
# from torch.logspace whose ends are 0-d tensors.
import math
import warnings

import torch

warnings.filterwarnings("ignore", message="This overload of")  # PyTorch's multi-line notes


class Momentum(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0.9):
        super().__init__(params, defaults={"lr": lr})
        self.momentum = momentum
        self.state = dict()
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p] = dict(mom=torch.zeros_like(p.data))

    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                mom = self.momentum * self.state[p]["mom"] - group["lr"] * p.grad.data
                self.state[p]["mom"] = mom
                p.data += mom


class OldAdam(torch.optim.Adam):
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad.data
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p.data)
                    state["exp_avg_sq"] = torch.zeros_like(p.data)
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                beta1, beta2 = group["betas"]
                state["step"] += 1
                exp_avg.mul_(beta1).add_(1 - beta1, grad)
                exp_avg_sq.mul_(beta2).addcmul_(1 - beta2, grad, grad)
                denom = exp_avg_sq.sqrt().add_(group["eps"])
                c1 = 1 - beta1 ** state["step"]
                c2 = 1 - beta2 ** state["step"]
                p.data.addcdiv_(-group["lr"] * math.sqrt(c2) / c1, exp_avg, denom)


torch.manual_seed(0)
X = torch.randn(32, 3)
y = X @ torch.tensor([[1.5], [-2.0], [0.5]]) + 0.3
for Opt in (Momentum, OldAdam):
    model = torch.nn.Linear(3, 1)
    opt = Opt(model.parameters(), lr=0.05)
    for step in range(6):
        loss = torch.nn.functional.mse_loss(model(X), y)
        model.zero_grad()
        loss.backward()
        opt.step()
        print(Opt.__name__, step, round(loss.item(), 6))
    print(model.weight.data, model.bias.data, type(opt.state).__name__)

x = torch.ones(3)
t1 = torch.tensor([1.0, 2.0, 3.0])
t2 = torch.tensor([2.0, 2.0, 4.0])
print(torch.addcmul(x, 0.5, t1, t2), x.addcdiv(2, t1, t2), torch.addcdiv(x, t1, t2, value=-1))

sigma_min = torch.tensor(0.002)
sigma_max = torch.tensor(2.0)
sigmas = torch.logspace(torch.log10(sigma_max), torch.log10(sigma_min), steps=8)
print(sigmas, sigmas.dtype)
print(torch.linspace(torch.tensor(-1.0), 1, 5), torch.logspace(0, torch.tensor(3), 4, base=2))
try:
    torch.linspace(torch.zeros(2), 1.0, 3)
except RuntimeError as e:
    print(e)
