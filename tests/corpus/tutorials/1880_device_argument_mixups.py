# A device argument given something that is not a device: a dtype passed by mistake, a
# number, a tensor. PyTorch refuses it at the call; so does gradcli.
import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

x = torch.arange(4.0)
make = torch.zeros
attempts = {
    "tensor": lambda d: torch.tensor([1.0, 2.0], device=d),
    "ones": lambda d: torch.ones(2, 3, device=d),
    "alias": lambda d: make(3, device=d),
    "full_like": lambda d: torch.full_like(x, 7.0, device=d),
    "new_ones": lambda d: x.new_ones(2, device=d),
    "arange": lambda d: torch.arange(5, device=d),
    "rand": lambda d: torch.rand(2, device=d),
    "linear": lambda d: nn.Linear(3, 2, device=d),
    "generator": lambda d: torch.Generator(device=d),
    "module.to": lambda d: nn.Linear(1, 1).to(device=d),
}
for wrong in (torch.float64, 0.5, [0], x):
    for label, attempt in attempts.items():
        try:
            attempt(wrong)
            print(label, "accepted")
        except TypeError as e:
            print(label, "->", str(e).splitlines()[0])

# the right kinds still work
print(torch.zeros(2, device="cpu"), torch.ones(1, device=torch.device("cpu")))

# AveragedModel's second positional parameter is `device`: an averaging function given
# there by position is refused (it must be passed as multi_avg_fn=)
torch.manual_seed(3)
net = nn.Linear(2, 1)
try:
    AveragedModel(net, get_ema_multi_avg_fn(0.9))
except TypeError as e:
    print("AveragedModel:", str(e).splitlines()[0])
try:
    AveragedModel(net, torch.float32)
except TypeError as e:
    print("AveragedModel dtype:", e)
ema = AveragedModel(net, multi_avg_fn=get_ema_multi_avg_fn(0.9))
ema_cpu = AveragedModel(net, "cpu", multi_avg_fn=get_ema_multi_avg_fn(0.9))
opt = torch.optim.SGD(net.parameters(), lr=0.5)
data = torch.tensor([[1.0, -1.0], [0.5, 2.0], [-1.5, 0.25]], dtype=torch.float64).float()
target = torch.tensor([[1.0], [0.0], [2.0]])
for step in range(3):
    opt.zero_grad()
    loss = ((net(data) - target) ** 2).mean()
    loss.backward()
    opt.step()
    ema.update_parameters(net)
    ema_cpu.update_parameters(net)
    print(step, round(loss.item(), 4))
print(ema.n_averaged, ema.module.weight.detach().double().round(decimals=4))
print(torch.equal(ema.module.bias, ema_cpu.module.bias))
