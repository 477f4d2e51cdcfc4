import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.randn(32, 3)
true_w = torch.tensor([[1.5], [-2.0], [0.5]])
Y = X @ true_w + 0.3

model = nn.Linear(3, 1)
optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
loss_fn = nn.MSELoss()

for epoch in range(1, 101):
    optimizer.zero_grad()
    loss = loss_fn(model(X), Y)
    loss.backward()
    optimizer.step()
    if epoch % 25 == 0:
        print(f"Epoch {epoch:3d} | loss {loss.item():.6f}")

print(model.weight.data)
print(model.bias.data)
