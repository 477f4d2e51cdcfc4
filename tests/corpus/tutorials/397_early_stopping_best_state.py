# Early stopping on a validation loss with patience: the best state_dict kept as clones of
# its tensors, then restored with load_state_dict.
import torch
from torch import nn

torch.manual_seed(19)
X = torch.randn(40, 3)
y = X @ torch.tensor([[0.5], [-1.0], [2.0]]) + 0.5 * torch.randn(40, 1)
X_train, y_train, X_val, y_val = X[:30], y[:30], X[30:], y[30:]

model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
criterion = nn.MSELoss()
best_loss = float("inf")
best_state = None
patience, bad_epochs = 5, 0
for epoch in range(200):
    model.train()
    optimizer.zero_grad()
    loss = criterion(model(X_train), y_train)
    loss.backward()
    optimizer.step()
    model.eval()
    with torch.no_grad():
        val_loss = criterion(model(X_val), y_val).item()
    if val_loss < best_loss:
        best_loss = val_loss
        best_state = {k: v.clone() for k, v in model.state_dict().items()}
        bad_epochs = 0
    else:
        bad_epochs += 1
        if bad_epochs >= patience:
            print(f"early stop at epoch {epoch}, best val loss {best_loss:.4f}")
            break

model.load_state_dict(best_state)
with torch.no_grad():
    print(f"{criterion(model(X_val), y_val).item():.4f}")
print(list(best_state.keys()))
