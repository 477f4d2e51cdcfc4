import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.randn(12, 2)
y = (X[:, 0] - 2 * X[:, 1] > 0).float().unsqueeze(1)

model = nn.Sequential(nn.Linear(2, 1), nn.Sigmoid())
opt = torch.optim.SGD(model.parameters(), lr=0.5)
loss_fn = nn.BCELoss()
batch_size = 4

for epoch in range(3):
    perm = torch.randperm(len(X))
    running = 0.0
    for i in range(0, len(X), batch_size):
        idx = perm[i:i + batch_size]
        opt.zero_grad()
        loss = loss_fn(model(X[idx]), y[idx])
        loss.backward()
        opt.step()
        running += loss.item() * len(idx)
    print("epoch %d: mean loss %.4f" % (epoch, running / len(X)))

with torch.no_grad():
    acc = ((model(X) > 0.5).float() == y).float().mean()
print(f"accuracy {acc.item():.2%}")
