# Warm restarts whose period grows by a non-integer factor: the usual workaround sets T_mult
# after the base's __init__ (which insists on an integer), and a StepLR whose decay is
# chosen after construction.
import torch
from torch.optim.lr_scheduler import CosineAnnealingWarmRestarts, StepLR


class FractionalRestarts(CosineAnnealingWarmRestarts):
    def __init__(self, optimizer, T_0, T_mult=1.0, eta_min=0.0):
        super().__init__(optimizer, T_0, T_mult=1, eta_min=eta_min)
        self.T_mult = T_mult


weights = torch.nn.Parameter(torch.zeros(2))
opt = torch.optim.SGD([weights], lr=0.2)
sched = FractionalRestarts(opt, T_0=2, T_mult=1.5, eta_min=0.01)
history = []
for step in range(9):
    history.append(round(sched.get_last_lr()[0], 5))
    opt.step()
    sched.step()
print(history, sched.T_i, sched.T_mult)


class LateDecay(StepLR):
    def __init__(self, optimizer):
        super().__init__(optimizer, step_size=2)
        self.gamma = 0.25


opt2 = torch.optim.SGD([torch.nn.Parameter(torch.ones(1))], lr=1.0)
decay = LateDecay(opt2)
for _ in range(5):
    opt2.step()
    decay.step()
print(decay.get_last_lr(), decay.state_dict()["gamma"])
