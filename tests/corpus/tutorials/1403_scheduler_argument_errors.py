# Checking which scheduler settings PyTorch accepts: each mistake raises the Python exception
# a training script can catch (ValueError for a bad value, TypeError for a bad type).
import torch

model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler

attempts = {
    "plateau mode": lambda: sched.ReduceLROnPlateau(opt, mode="avg"),
    "plateau factor": lambda: sched.ReduceLROnPlateau(opt, factor=1.5),
    "plateau threshold": lambda: sched.ReduceLROnPlateau(opt, threshold_mode="pct"),
    "plateau min_lr": lambda: sched.ReduceLROnPlateau(opt, min_lr=[0.0, 0.1]),
    "linear start": lambda: sched.LinearLR(opt, start_factor=0.0),
    "linear end": lambda: sched.LinearLR(opt, end_factor=1.5),
    "constant": lambda: sched.ConstantLR(opt, factor=3),
    "lambdas": lambda: sched.LambdaLR(opt, [lambda e: 1.0, lambda e: 0.5]),
    "lambda int": lambda: sched.LambdaLR(opt, 0.9),
    "multiplicative": lambda: sched.MultiplicativeLR(opt, 0.9),
    "not an optimizer": lambda: sched.StepLR(model, step_size=2),
}
for name, make in attempts.items():
    try:
        make()
        print(f"{name}: accepted")
    except ValueError as e:
        print(f"{name}: ValueError: {e}")
    except TypeError as e:
        print(f"{name}: TypeError: {e}")
print(opt.param_groups[0]["lr"])
