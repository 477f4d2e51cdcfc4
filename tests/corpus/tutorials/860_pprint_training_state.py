# Inspecting a model's state and its gradients with pprint, as notebooks do between cells.
import pprint
from pprint import pformat, pprint as show

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
show(model.state_dict())
show({name: tuple(p.shape) for name, p in model.named_parameters()})

x = torch.randn(8, 3)
target = torch.randn(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
history = []
for step in range(3):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), target)
    loss.backward()
    opt.step()
    history.append({"step": step, "loss": round(loss.item(), 5)})

show(history)
show({name: p.grad for name, p in model.named_parameters() if name.endswith("bias")})
pprint.pp({"lr": 0.1, "momentum": 0.9, "nesterov": False, "dampening": 0})
report = pformat({"final_loss": history[-1]["loss"], "layers": [str(m) for m in model]})
print(report)
printer = pprint.PrettyPrinter(indent=2, width=60)
printer.pprint(opt.state_dict()["param_groups"])
print(pformat(list(range(25)), width=40, compact=True))
print(pformat({"a": {"b": {"c": [1, 2, 3]}}}, depth=2))
