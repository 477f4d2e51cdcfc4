# A small trainer that checks its keyword arguments with set algebra (unknown options are
# `set(kwargs) - set(defaults)`), tracks which parameters received gradients with set unions and
# differences, and reports the frozen ones, as training utilities do.
import torch
import torch.nn as nn


def train(model, x, y, **kwargs):
    defaults = {"steps": 5, "lr": 0.1, "freeze": ()}
    unknown = set(kwargs.keys()) - set(defaults.keys())
    if unknown:
        raise KeyError(f"Invalid arguments {sorted(unknown)}.")
    defaults.update(kwargs)
    for name, p in model.named_parameters():
        p.requires_grad_(name not in defaults["freeze"])
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.SGD(params, lr=defaults["lr"])
    touched = set()
    for step in range(defaults["steps"]):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        touched |= {n for n, p in model.named_parameters() if p.grad is not None}
        opt.step()
    every = {n for n, _ in model.named_parameters()}
    return loss.item(), touched, every - touched


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
x = torch.randn(16, 3)
y = x.sum(dim=1, keepdim=True)

loss, touched, frozen = train(model, x, y, steps=4, freeze=("0.bias",))
print(round(loss, 6), sorted(touched), frozen)
print(sorted(touched & {"0.weight", "2.weight"}), sorted(touched ^ {"0.bias", "extra"}))

try:
    train(model, x, y, step=3, learning_rate=0.1)
except KeyError as e:
    print("refused:", e)

seen = {"0.weight"}
alias = seen
seen |= touched
print(alias is seen, len(alias), {"2.bias"} <= seen, seen >= {"0.bias"})
