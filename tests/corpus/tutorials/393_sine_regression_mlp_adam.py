# Fitting sin(x) with a small tanh MLP and Adam (a forum-style regression example): the loss
# every 100 epochs and a few predictions.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 64).unsqueeze(1)
y = torch.sin(x)
model = nn.Sequential(nn.Linear(1, 20), nn.Tanh(), nn.Linear(20, 20), nn.Tanh(), nn.Linear(20, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
loss_fn = nn.MSELoss()
for epoch in range(300):
    pred = model(x)
    loss = loss_fn(pred, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 100 == 0:
        print(f"Epoch {epoch}, Loss: {loss.item():.6f}")

model.eval()
with torch.no_grad():
    test = torch.tensor([[0.0], [math.pi / 2], [-1.0]])
    print(model(test).squeeze().round(decimals=2))
print(f"{loss_fn(model(x), y).item():.2e}")
