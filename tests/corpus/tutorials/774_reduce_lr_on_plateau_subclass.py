# Subclassing ReduceLROnPlateau to log what it does during training.
import torch
import torch.nn as nn
from torch.optim.lr_scheduler import ReduceLROnPlateau

class LoggingPlateau(ReduceLROnPlateau):
    def __init__(self, optimizer, **kwargs):
        self.log = []
        super().__init__(optimizer, **kwargs)
        self.reductions = 0

    def step(self, metrics):
        before = self.optimizer.param_groups[0]["lr"]
        super().step(metrics)
        after = self.get_last_lr()[0]
        if after < before:
            self.reductions += 1
        self.log.append((float(metrics), after))

class Verbose(ReduceLROnPlateau):
    def _reduce_lr(self, epoch):
        print("reducing at epoch", epoch)
        super()._reduce_lr(epoch)

torch.manual_seed(0)
model = nn.Linear(2, 1)
x = torch.randn(32, 2)
y = x @ torch.tensor([[2.0], [-1.0]]) + 0.3

opt = torch.optim.SGD(model.parameters(), lr=1.0)
sched = LoggingPlateau(opt, mode="min", factor=0.5, patience=1)
for epoch in range(12):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    sched.step(loss.item() if epoch % 4 else 10.0)
    print(epoch, f"{loss.item():.4f}", sched.get_last_lr())
print(sched.log)
print(sched.reductions, sched.best, sched.num_bad_epochs, sched.last_epoch, sched.patience)
print(isinstance(sched, ReduceLROnPlateau), type(sched).__name__)
print(sorted(sched.state_dict().keys()))
opt2 = torch.optim.SGD(model.parameters(), lr=0.1)
v = Verbose(opt2, patience=0, factor=0.1)
for loss in [1.0, 2.0, 3.0]:
    v.step(loss)
print(v.get_last_lr())
v.patience = 5
print(v.patience)
