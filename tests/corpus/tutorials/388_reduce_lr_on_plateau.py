# ReduceLROnPlateau driven by a validation loss that stops improving: patience, factor,
# min_lr, and the learning rate read from param_groups each epoch.
import torch
from torch import optim

w = torch.zeros(2, requires_grad=True)
optimizer = optim.SGD([w], lr=1.0)
scheduler = optim.lr_scheduler.ReduceLROnPlateau(optimizer, "min", patience=2, factor=0.5, min_lr=0.1)
val_losses = [1.0, 0.8, 0.7, 0.71, 0.72, 0.7, 0.69, 0.69, 0.69, 0.69, 0.69, 0.5, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6]
for epoch, val_loss in enumerate(val_losses):
    optimizer.step()
    scheduler.step(val_loss)
    print(epoch, val_loss, optimizer.param_groups[0]["lr"], scheduler.num_bad_epochs)
print(scheduler.best, scheduler.get_last_lr())

opt = optim.Adam([w], lr=0.01)
sched = optim.lr_scheduler.ReduceLROnPlateau(opt, mode="max", patience=1, threshold=0.05, cooldown=1)
for acc in [0.5, 0.6, 0.62, 0.61, 0.64, 0.7, 0.7, 0.7, 0.7]:
    opt.step()
    sched.step(acc)
    print(acc, opt.param_groups[0]["lr"])
