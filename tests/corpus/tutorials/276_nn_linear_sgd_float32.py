import torch
from torch import nn

torch.manual_seed(0)
X = torch.linspace(-1, 1, 40).reshape(-1, 1)
y = 3 * X ** 2 - X + 0.5 + 0.1 * torch.randn(X.shape)
model = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.MSELoss()
for epoch in range(201):
    opt.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    opt.step()
    if epoch % 50 == 0:
        print(f"epoch {epoch:3d}  loss {loss.item():.6f}")
print(model(torch.tensor([[0.0], [0.5]])).detach())
print(sum(p.numel() for p in model.parameters()))
