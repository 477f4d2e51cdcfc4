# An lr range test written with NumPy: the learning rates stay NumPy floats in the
# optimizer and in the scheduler's history, as the book's tracking dict prints them.
import numpy as np
import torch
from torch.optim.lr_scheduler import LambdaLR, MultiplicativeLR, StepLR

torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=1e-3)
growth = np.exp(np.log(10.0) / 4)
sched = LambdaLR(opt, lr_lambda=lambda it: growth**it)
history = {"lr": []}
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
for it in range(4):
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    history["lr"].append(sched.get_last_lr()[0])
    sched.step()
print(history["lr"])
print(repr(opt.param_groups[0]["lr"]))

opt2 = torch.optim.SGD(model.parameters(), lr=np.float64(0.1))
step = StepLR(opt2, step_size=1, gamma=0.5)
for _ in range(2):
    opt2.step()
    step.step()
print(step.get_last_lr(), type(opt2.param_groups[0]["lr"]).__name__)

opt3 = torch.optim.SGD(model.parameters(), lr=0.2)
mult = MultiplicativeLR(opt3, lr_lambda=lambda epoch: np.float64(0.9))
opt3.step()
mult.step()
print(mult.get_last_lr(), round(mult.get_last_lr()[0], 3))
