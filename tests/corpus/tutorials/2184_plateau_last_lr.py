# Tutorials written before get_last_lr() existed print the scheduler's _last_lr field:
# a plateau schedule on a validation loss that stalls, and a step schedule beside it.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
val_losses = [1.0, 0.8, 0.81, 0.82, 0.79, 0.80, 0.83, 0.84]
for epoch, val in enumerate(val_losses):
    opt.step()
    plateau.step(val)
    print(epoch, val, plateau._last_lr, plateau.num_bad_epochs)

opt2 = torch.optim.SGD(model.parameters(), lr=1.0)
step = torch.optim.lr_scheduler.StepLR(opt2, step_size=2, gamma=0.1)
for epoch in range(5):
    opt2.step()
    step.step()
    print(epoch, step._last_lr, step._step_count, step.last_epoch)
