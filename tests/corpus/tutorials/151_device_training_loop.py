import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(f"Using {device} device")

torch.manual_seed(0)
model = nn.Linear(2, 1).to(device)
X = torch.tensor([[1.0, 2.0], [2.0, 1.0], [3.0, 3.0]]).to(device)
y = torch.tensor([[5.0], [4.0], [9.0]]).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.02)

for epoch in range(5):
    pred = model(X)
    loss = nn.functional.mse_loss(pred, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"loss: {loss.item():>7f}  [{epoch + 1:>2d}/5]")

print(model.weight.detach().cpu().numpy())
print(model(X).detach().cpu().tolist())
print(next(model.parameters()).device)
