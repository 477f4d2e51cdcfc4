# Third derivatives through activations whose gradients divide: log, sqrt,
# atan and a rational function. Their backward formulas are quotients, and a
# quotient's gradient for its denominator, -grad * ((x / y) / y), is where a
# second-order pass meets the most gradients.
import torch
import torch.nn as nn

torch.manual_seed(2)
activations = {
    "log": lambda h: torch.log(h * h + 1),
    "sqrt": lambda h: torch.sqrt(h * h + 1),
    "atan": torch.atan,
    "ratio": lambda h: h / (h * h + 1),
}
t = torch.linspace(-1.0, 1.0, 5).view(-1, 1).requires_grad_()
for name, act in activations.items():
    for _ in range(4):
        first = nn.Linear(1, 3)
        last = nn.Linear(3, 1)
        y = last(act(first(t)))
        dy = torch.autograd.grad(y, t, torch.ones_like(y), create_graph=True)[0]
        d2y = torch.autograd.grad(dy, t, torch.ones_like(dy), create_graph=True)[0]
        loss = (d2y - y).pow(2).mean() + dy.pow(2).mean()
        loss.backward()
        print(name, round(loss.item(), 5))
        print("  grads", first.bias.grad.tolist() + first.weight.grad.flatten().tolist())
