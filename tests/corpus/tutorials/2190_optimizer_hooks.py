# Optimizer hooks: log every step, clip the gradients before it, and tag the checkpoint.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.05)

steps = []


def count_steps(optimizer, args, kwargs):
    steps.append(len(steps))
    print(f"step {len(steps)} done, lr={optimizer.param_groups[0]['lr']}")


def clip_first(optimizer, args, kwargs):
    for group in optimizer.param_groups:
        torch.nn.utils.clip_grad_norm_(group["params"], max_norm=0.5)
    print("pre-hook saw", type(args[0]).__name__, "and kwargs", kwargs)


post = opt.register_step_post_hook(count_steps)
pre = opt.register_step_pre_hook(clip_first)

x = torch.arange(12, dtype=torch.float32).reshape(4, 3) / 10
y = x.sum(dim=1, keepdim=True)
for epoch in range(3):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    if epoch == 1:
        pre.remove()
        print("clipping hook removed")

post.remove()
opt.step()
print("steps counted:", len(steps))


def before_save(optimizer):
    print("saving", type(optimizer).__name__)


def tag(optimizer, state_dict):
    state_dict["epoch"] = 3
    return state_dict


opt.register_state_dict_pre_hook(before_save)
opt.register_state_dict_post_hook(tag)
ckpt = opt.state_dict()
print(sorted(ckpt), ckpt["epoch"])


def drop_tag(optimizer, state_dict):
    print("loading epoch", state_dict.pop("epoch"))
    return state_dict


def after_load(optimizer):
    print("loaded, step =", optimizer.state[model.weight]["step"].item())


opt2 = torch.optim.Adam(model.parameters(), lr=0.05)
opt2.register_load_state_dict_pre_hook(drop_tag)
opt2.register_load_state_dict_post_hook(after_load, prepend=True)
opt2.load_state_dict(ckpt)
print("epoch" in ckpt, round(model.weight.sum().item(), 4))
