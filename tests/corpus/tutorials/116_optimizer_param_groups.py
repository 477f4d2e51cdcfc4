import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
opt = torch.optim.SGD([
    {"params": model[0].parameters()},
    {"params": model[1].parameters(), "lr": 0.01},
], lr=0.1, momentum=0.5)

print(len(opt.param_groups))
print([g["lr"] for g in opt.param_groups])

x = torch.tensor([[1.0, -1.0]])
for epoch in range(3):
    opt.zero_grad()
    loss = model(x).pow(2).sum()
    loss.backward()
    opt.step()
    print(epoch, f"{loss.item():.5f}")

for group in opt.param_groups:
    group["lr"] *= 0.5
print([g["lr"] for g in opt.param_groups])
print(model[1].weight)
