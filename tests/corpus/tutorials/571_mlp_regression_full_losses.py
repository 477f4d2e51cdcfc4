# A small multilayer perceptron for regression (two hidden ReLU layers, one output), trained
# with SGD and momentum on shuffled mini-batches of 64 (the last of 8), the running loss and
# the full-data loss printed with all their digits every 5 epochs.
import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.randn(200, 8)
y = X[:, :1] * 2 - X[:, 1:2] * X[:, 3:4] + 0.5 * X[:, 2:3].abs() + 0.05 * torch.randn(200, 1)

model = nn.Sequential(
    nn.Linear(8, 64),
    nn.ReLU(),
    nn.Linear(64, 32),
    nn.ReLU(),
    nn.Linear(32, 1),
)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.MSELoss()

for epoch in range(30):
    perm = torch.randperm(200)
    for i in range(0, 200, 64):
        idx = perm[i : i + 64]
        optimizer.zero_grad()
        loss = loss_fn(model(X[idx]), y[idx])
        loss.backward()
        optimizer.step()
    if epoch % 5 == 4:
        with torch.no_grad():
            full = loss_fn(model(X), y).item()
        print(f"epoch {epoch + 1:2d}  batch loss {loss.item()}  full loss {full}")

with torch.no_grad():
    print("predictions:", model(X[:4]).view(-1).tolist())
    print("targets:    ", y[:4].view(-1).tolist())
