# Fit y = sin(x) with a one-hidden-layer network: nn.Linear(1, 16), ReLU, nn.Linear(16, 1),
# trained with SGD and momentum on mini-batches of 8 points. Every loss is printed with all its digits,
# and the predictions at a few points at the end.
import torch
import torch.nn as nn

torch.manual_seed(1)
x = torch.linspace(-3, 3, 40).unsqueeze(1)
y = torch.sin(x)

net = nn.Sequential(nn.Linear(1, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.02, momentum=0.9)
loss_fn = nn.MSELoss()

for epoch in range(60):
    perm = torch.randperm(40)
    for i in range(0, 40, 8):
        idx = perm[i : i + 8]
        pred = net(x[idx])
        loss = loss_fn(pred, y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 10 == 9:
        print(epoch + 1, loss.item())

with torch.no_grad():
    test = torch.tensor([[-2.0], [0.5], [1.5]])
    print(net(test))
print(net[2].weight)
print(net[2].bias)
