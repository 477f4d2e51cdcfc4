# Betas kept as tensors (so a schedule can change them in place) with NAdam and RAdam,
# on a small least-squares fit in float64 and a float32 model (weights shown to 8 places).
import torch
import torch.nn as nn

torch.manual_seed(11)
X = torch.randn(32, 3, dtype=torch.float64)
true_w = torch.tensor([1.5, -2.0, 0.5], dtype=torch.float64)
y = (X * true_w).sum(dim=1) + 0.1 * torch.randn(32, dtype=torch.float64)


def shown(t):
    return [round(v, 8) for v in t.detach().tolist()]


def fit(opt_class, steps=40, **options):
    w = torch.zeros(3, dtype=torch.float64, requires_grad=True)
    beta1 = torch.tensor(0.9)
    beta2 = torch.tensor(0.99)
    opt = opt_class([w], lr=0.1, betas=(beta1, beta2), **options)
    for step in range(steps):
        opt.zero_grad()
        loss = ((X * w).sum(dim=1) - y).pow(2).mean()
        loss.backward()
        opt.step()
        if step == 19:
            beta1.fill_(0.8)  # the group holds the same tensor: the change is seen
    return w, opt, loss


for opt_class in (torch.optim.NAdam, torch.optim.RAdam):
    w, opt, loss = fit(opt_class)
    print(opt_class.__name__, f"loss={loss.item():.8f}", shown(w))
    state = opt.state[w]
    print("  step", state["step"].item(), "betas", opt.param_groups[0]["betas"])
    if "mu_product" in state:
        print("  mu_product", state["mu_product"].item(), state["mu_product"].dtype)

w, opt, loss = fit(torch.optim.NAdam, weight_decay=0.01, decoupled_weight_decay=True)
print("NAdamW-style", shown(w))
w, opt, loss = fit(torch.optim.RAdam, weight_decay=0.01)
print("RAdam + L2", shown(w))

# a float32 network, one beta a tensor and the other a float
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
opt = torch.optim.RAdam(net.parameters(), lr=0.01, betas=(torch.tensor(0.85), 0.995))
inputs = X.float()
targets = y.float().unsqueeze(1)
for _ in range(15):
    opt.zero_grad()
    loss = nn.functional.mse_loss(net(inputs), targets)
    loss.backward()
    opt.step()
print(round(loss.item(), 4))
print(net[0].bias.detach())

# betas that are not one number each
bad = (torch.full((2,), 0.9), torch.tensor(0.99))
try:
    torch.optim.NAdam([torch.zeros(1, requires_grad=True)], betas=bad)
except RuntimeError as e:
    print("RuntimeError:", e)
