# Checking which optimizer and scheduler a training script was given, the way utility code
# in training loops does: by type(), its name, and its module.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
optimizers = [
    torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9),
    torch.optim.Adam(model.parameters(), lr=1e-3),
    torch.optim.AdamW(model.parameters()),
    torch.optim.RMSprop(model.parameters()),
]
for opt in optimizers:
    print(type(opt), type(opt).__name__, type(opt).__module__)
    if type(opt) is torch.optim.SGD:
        print("  plain SGD, momentum", opt.defaults["momentum"])
    elif type(opt) in (torch.optim.Adam, torch.optim.AdamW):
        print("  an Adam variant, betas", opt.defaults["betas"])

opt = optimizers[0]
schedulers = {
    "step": torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5),
    "plateau": torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1),
}
for key, sched in schedulers.items():
    print(key, type(sched), type(sched).__name__)
    print("  is StepLR:", isinstance(sched, torch.optim.lr_scheduler.StepLR))
    print("  repr starts:", repr(sched).split(" object at ")[0])

# a fresh optimizer of the same class as another, as config-driven code builds one
clone = type(optimizers[1])(model.parameters(), lr=0.01)
print(type(clone) == type(optimizers[1]), clone.param_groups[0]["lr"])
counts = {}
for o in optimizers + [clone]:
    counts[type(o).__name__] = counts.get(type(o).__name__, 0) + 1
print(counts)
