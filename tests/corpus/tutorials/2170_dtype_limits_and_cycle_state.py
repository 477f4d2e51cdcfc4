# Checking the numeric limits of each dtype before picking one for a model, then peeking
# at what a one-cycle and a cyclic schedule keep in their state_dict.
import torch

for dt in (torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64):
    info = torch.finfo(dt)
    print(info)
    print("  resolution", info.resolution, "eps", info.eps)

for dt in (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64):
    print(torch.iinfo(dt), torch.iinfo(dt).max)

try:
    torch.iinfo(torch.bool)
except TypeError as err:
    print("TypeError:", err)

weight = torch.nn.Parameter(torch.zeros(3))
for cycle in (True, False):
    opt = torch.optim.Adam([weight], lr=1e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=0.1, total_steps=5, cycle_momentum=cycle
    )
    opt.step()
    sched.step()
    print(list(sched.state_dict()))
    sgd = torch.optim.SGD([weight], lr=0.01, momentum=0.9)
    cyc = torch.optim.lr_scheduler.CyclicLR(sgd, 0.001, 0.01, step_size_up=3, cycle_momentum=cycle)
    sgd.step()
    cyc.step()
    print(list(cyc.state_dict()))
