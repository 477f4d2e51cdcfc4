# Resuming training from a checkpoint: the model, the optimizer and the LR scheduler each
# give a state_dict() and take it back with load_state_dict(), and the resumed run goes on
# with the same learning rates as the one that never stopped.
import torch
import torch.nn as nn
import torch.optim as optim
from torch.optim import lr_scheduler

torch.manual_seed(0)
X = torch.randn(16, 4)
Y = X @ torch.tensor([[1.0], [-2.0], [0.5], [3.0]]) + 0.1

def make(seed):
    torch.manual_seed(seed)
    net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
    opt = optim.Adam(net.parameters(), lr=0.05)
    sched = lr_scheduler.MultiStepLR(opt, milestones=[3, 6], gamma=0.3)
    return net, opt, sched

def train(net, opt, sched, epochs):
    for _ in range(epochs):
        opt.zero_grad()
        loss = nn.functional.mse_loss(net(X), Y)
        loss.backward()
        opt.step()
        sched.step()
    return loss.item()

net, opt, sched = make(1)
train(net, opt, sched, 4)
checkpoint = {
    "epoch": 4,
    "model_state_dict": net.state_dict(),
    "optimizer_state_dict": opt.state_dict(),
    "scheduler_state_dict": sched.state_dict(),
}
print("saved at epoch", checkpoint["epoch"], "lr", sched.get_last_lr())
print(sorted(checkpoint["scheduler_state_dict"].keys()))

net2, opt2, sched2 = make(2)
net2.load_state_dict(checkpoint["model_state_dict"])
opt2.load_state_dict(checkpoint["optimizer_state_dict"])
sched2.load_state_dict(checkpoint["scheduler_state_dict"])
print("resumed: last_epoch", sched2.last_epoch, "lr", sched2.get_last_lr())

a = train(net, opt, sched, 4)
b = train(net2, opt2, sched2, 4)
print(f"uninterrupted {a:.6f}  resumed {b:.6f}  same: {a == b}")
print(sched.get_last_lr(), sched2.get_last_lr())

# ReduceLROnPlateau keeps its best value and counters in its state
plateau = lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
for val_loss in [0.9, 0.8, 0.85, 0.86, 0.87]:
    plateau.step(val_loss)
state = plateau.state_dict()
fresh = lr_scheduler.ReduceLROnPlateau(opt2, mode="min", factor=0.5, patience=1)
fresh.load_state_dict(state)
print(fresh.best, fresh.num_bad_epochs, fresh.state_dict()["_last_lr"])

# schedulers made of schedulers save each one's state
seq = lr_scheduler.SequentialLR(
    opt,
    [lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=2), lr_scheduler.StepLR(opt, 2)],
    milestones=[2],
)
for _ in range(3):
    opt.step()
    seq.step()
saved = seq.state_dict()
print(len(saved["_schedulers"]), saved["_milestones"], saved["last_epoch"])
