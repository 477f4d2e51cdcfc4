import torch
import torch.nn as nn

torch.manual_seed(0)

X = torch.linspace(-1, 1, 16).unsqueeze(1)
Y = X ** 2

model = nn.Sequential(
    nn.Linear(1, 8),
    nn.Tanh(),
    nn.Linear(8, 1),
)
print(model)

optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
loss_fn = nn.MSELoss()

for epoch in range(60):
    optimizer.zero_grad()
    loss = loss_fn(model(X), Y)
    loss.backward()
    optimizer.step()
    if epoch % 15 == 0 or epoch == 59:
        print(f"epoch {epoch:2d}  loss {loss.item():.5f}")
