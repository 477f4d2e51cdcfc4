# Per-layer learning rates with parameter groups (the torch.optim docs' "base"/"classifier"
# example), printing the optimizer, then changing a group's lr by hand.
import torch
import torch.nn as nn
import torch.optim as optim


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.base = nn.Sequential(nn.Linear(4, 8), nn.ReLU())
        self.classifier = nn.Linear(8, 2)

    def forward(self, x):
        return self.classifier(self.base(x))


torch.manual_seed(23)
model = Model()
optimizer = optim.SGD(
    [
        {"params": model.base.parameters()},
        {"params": model.classifier.parameters(), "lr": 1e-3},
    ],
    lr=1e-2,
    momentum=0.9,
)
print(optimizer)
print([len(g["params"]) for g in optimizer.param_groups])
x = torch.randn(10, 4)
y = torch.randint(0, 2, (10,))
for step in range(3):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    print(step, f"{loss.item():.6f}")
for g in optimizer.param_groups:
    g["lr"] *= 0.1
print([g["lr"] for g in optimizer.param_groups])
print(optimizer.state_dict()["param_groups"][1])
