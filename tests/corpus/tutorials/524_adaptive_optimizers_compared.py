# Comparing adaptive optimizers on a small nonlinear least-squares problem.
# Each optimizer keeps running averages of squared gradients and divides by
# their square root, so the printed parameters show every last digit of it.
import torch

torch.manual_seed(0)
target = torch.randn(10)


def loss_fn(p):
    fit = (torch.tanh(p) - target).pow(2).sum()
    penalty = torch.exp(-p).mean() + torch.log(p.abs() + 1).sum()
    return fit + penalty


start = torch.randn(10)
makers = {
    "Adam": lambda ps: torch.optim.Adam(ps, lr=0.1),
    "AdamW": lambda ps: torch.optim.AdamW(ps, lr=0.05, weight_decay=0.1),
    "Adagrad": lambda ps: torch.optim.Adagrad(ps, lr=0.3),
    "RMSprop": lambda ps: torch.optim.RMSprop(ps, lr=0.01, centered=True),
}
for name, make in makers.items():
    p = start.clone().requires_grad_(True)
    opt = make([p])
    for step in range(6):
        opt.zero_grad()
        loss = loss_fn(p)
        loss.backward()
        opt.step()
    print(f"{name:8s} final loss {loss.item():.7f}")
    print("  params:", p.detach().tolist())
    state = opt.state[p]
    key = "exp_avg_sq" if "exp_avg_sq" in state else ("sum" if "sum" in state else "square_avg")
    print("  sqrt of", key, state[key].sqrt().tolist())
