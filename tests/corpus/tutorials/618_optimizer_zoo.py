# Comparing torch.optim's optimizers on the same small regression problem,
# the way optimizer-comparison notebooks do (one fresh model per optimizer).
import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.linspace(-2, 2, 40).unsqueeze(1)
y = 0.5 * X**3 - X + 0.1 * torch.randn(40, 1)


def make_model():
    torch.manual_seed(42)
    return nn.Sequential(nn.Linear(1, 8), nn.ReLU(), nn.Linear(8, 1))


optimizers = {
    "SGD": lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9),
    "Adam": lambda p: torch.optim.Adam(p, lr=0.01),
    "Adadelta": lambda p: torch.optim.Adadelta(p, lr=1.0),
    "Adamax": lambda p: torch.optim.Adamax(p, lr=0.02),
    "NAdam": lambda p: torch.optim.NAdam(p, lr=0.01),
    "RAdam": lambda p: torch.optim.RAdam(p, lr=0.01),
    "Rprop": lambda p: torch.optim.Rprop(p, lr=0.01),
    "ASGD": lambda p: torch.optim.ASGD(p, lr=0.01, t0=20),
}

loss_fn = nn.MSELoss()
results = {}
for name, make_opt in optimizers.items():
    model = make_model()
    opt = make_opt(model.parameters())
    history = []
    for epoch in range(60):
        opt.zero_grad()
        loss = loss_fn(model(X), y)
        loss.backward()
        opt.step()
        history.append(loss.item())
    results[name] = history
    print(f"{name:>8}: start {history[0]:.4f}  epoch 30 {history[30]:.4f}  end {history[-1]:.4f}")

best = min(results, key=lambda k: results[k][-1])
print("best:", best)
print(opt)
state = opt.state[next(model.parameters())]
print(sorted(state.keys()), state["step"], state["eta"], state["mu"])
