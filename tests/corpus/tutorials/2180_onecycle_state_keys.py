# A one-cycle schedule's checkpoint: which keys its state_dict holds depends on whether
# the momentum cycles, and on which momentum (SGD's or Adam's beta1) it is.
import torch
from torch.optim.lr_scheduler import OneCycleLR

w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))


def make(kind, cycle):
    if kind == "adam":
        opt = torch.optim.Adam([w], lr=0.01)
    else:
        opt = torch.optim.SGD([w], lr=0.01, momentum=0.9)
    return opt, OneCycleLR(opt, max_lr=0.5, total_steps=8, cycle_momentum=cycle)


for kind, cycle in [("sgd", True), ("adam", True), ("sgd", False)]:
    opt, sched = make(kind, cycle)
    for _ in range(3):
        opt.step()
        sched.step()
    state = sched.state_dict()
    print(kind, cycle, list(state))
    print("  use_beta1:", state.get("use_beta1", "absent"), "last_epoch:", state["last_epoch"])
    opt2, sched2 = make(kind, cycle)
    sched2.load_state_dict(state)
    print("  reloaded:", sched2.state_dict() == state, sched2.get_last_lr() == sched.get_last_lr())
