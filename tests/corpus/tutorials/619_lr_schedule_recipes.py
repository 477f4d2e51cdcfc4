# Learning-rate schedule recipes from training tutorials: linear warm-up then cosine decay
# (SequentialLR), cosine with warm restarts stepped per batch, a cyclical schedule, and
# two schedules chained. The model trains on a small synthetic regression problem.
import torch
import torch.nn as nn
from torch.optim.lr_scheduler import (
    ChainedScheduler,
    CosineAnnealingLR,
    CosineAnnealingWarmRestarts,
    CyclicLR,
    ExponentialLR,
    LinearLR,
    SequentialLR,
)
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
X = torch.randn(64, 3)
y = X @ torch.tensor([[1.5], [-2.0], [0.5]]) + 0.3
loader = DataLoader(TensorDataset(X, y), batch_size=16, shuffle=True)


def train(name, make_sched, per_batch=False, epochs=6):
    torch.manual_seed(1)
    model = nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    sched = make_sched(opt)
    lrs = []
    iters = len(loader)
    for epoch in range(epochs):
        for i, (xb, yb) in enumerate(loader):
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(xb), yb)
            loss.backward()
            opt.step()
            if per_batch:
                sched.step(epoch + i / iters)
        if not per_batch:
            sched.step()
        lrs.append(sched.get_last_lr()[0])
    print(f"{name}: final loss {loss.item():.5f}")
    print("  lrs:", ", ".join(f"{lr:.5f}" for lr in lrs))
    return opt


warm = lambda opt: SequentialLR(
    opt,
    schedulers=[
        LinearLR(opt, start_factor=0.1, total_iters=2),
        CosineAnnealingLR(opt, T_max=4, eta_min=1e-4),
    ],
    milestones=[2],
)
train("warmup+cosine", warm)
train("warm restarts", lambda opt: CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2), per_batch=True)
opt = train("cyclic", lambda opt: CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2"))
print("  momentum now:", opt.param_groups[0]["momentum"])
train(
    "chained",
    lambda opt: ChainedScheduler([LinearLR(opt, start_factor=0.5, total_iters=3), ExponentialLR(opt, gamma=0.8)]),
)
