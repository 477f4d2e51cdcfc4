# Linear regression the way the first tutorial chapter writes it: synthetic data from a known
# plane with 13 features (as many as the housing data sets have), nn.Linear(13, 1),
# mini-batches of 64 (the last one smaller), SGD on the mean squared error, and the loss
# printed in full every epoch.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(42)
n_samples = 310
n_features = 13
X = torch.randn(n_samples, n_features)
true_w = torch.linspace(-2.0, 2.0, n_features).unsqueeze(1)
true_b = 4.2
y = X @ true_w + true_b + 0.01 * torch.randn(n_samples, 1)

dataset = TensorDataset(X, y)
loader = DataLoader(dataset, batch_size=64, shuffle=True)

model = nn.Linear(n_features, 1)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.03)

for epoch in range(5):
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        train_loss = criterion(model(X), y)
    print(f"epoch {epoch + 1}, loss {train_loss.item()}")
    print("last batch loss:", loss.item())

print("estimated w:", model.weight.data.view(-1)[:4].tolist())
print("estimated b:", model.bias.item())
print("largest error in w:", (true_w.view(-1) - model.weight.data.view(-1)).abs().max().item())
with torch.no_grad():
    print(model(X[:5]).squeeze(1).tolist())
