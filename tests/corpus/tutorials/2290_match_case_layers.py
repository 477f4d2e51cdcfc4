# Picking layers and losses by name with `match`, then a few steps of training.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def make_activation(name):
    match name:
        case "relu":
            return nn.ReLU()
        case "tanh" | "hardtanh":
            return nn.Tanh() if name == "tanh" else nn.Hardtanh()
        case ("leaky", slope):
            return nn.LeakyReLU(slope)
        case None:
            return nn.Identity()
        case other:
            raise ValueError(f"unknown activation {other!r}")


def loss_fn(kind, pred, target):
    match kind:
        case "mse":
            return F.mse_loss(pred, target)
        case "huber" | "smooth_l1" as name:
            print("using", name)
            return F.smooth_l1_loss(pred, target)
        case [weight, inner] if weight > 0:
            return weight * loss_fn(inner, pred, target)


def describe(v):
    match v:
        case torch.Tensor() if v.requires_grad:
            return f"leaf={v.is_leaf} shape={tuple(v.shape)}"
        case int(n) | float(n):
            return f"number {n}"
        case [first, *rest]:
            return f"{len(rest) + 1} items, first {first}"
        case _:
            return type(v).__name__


x = torch.linspace(-2, 2, 8, dtype=torch.float64).unsqueeze(1)
y = x.pow(3) - x
for act, kind in [("relu", "mse"), (("leaky", 0.1), "huber"), ("tanh", [0.5, "mse"]), (None, "mse")]:
    net = nn.Sequential(nn.Linear(1, 6), make_activation(act), nn.Linear(6, 1)).double()
    opt = torch.optim.SGD(net.parameters(), lr=0.05)
    for step in range(3):
        opt.zero_grad()
        loss = loss_fn(kind, net(x), y)
        loss.backward()
        opt.step()
    print(act, kind, round(loss.item(), 6), describe(net[0].weight))
    print(net[0].weight.grad.squeeze())

print(describe(3), describe(2.5), describe([4, 5, 6]), describe("text"))
try:
    make_activation("gelu")
except ValueError as e:
    print(e)
