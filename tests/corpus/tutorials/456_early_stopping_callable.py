# An early-stopping helper: a class with __call__ that watches the validation loss, keeps the
# best value and counts the epochs without improvement.
import torch
from torch import nn


class EarlyStopping:
    def __init__(self, patience=2, min_delta=0.0):
        self.patience = patience
        self.min_delta = min_delta
        self.best = None
        self.bad_epochs = 0
        self.stop = False

    def __call__(self, val_loss):
        if self.best is None or val_loss < self.best - self.min_delta:
            self.best = val_loss
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
            if self.bad_epochs >= self.patience:
                self.stop = True
        return self.stop


torch.manual_seed(1)
x = torch.randn(40, 3)
y = x @ torch.tensor([1.0, -1.0, 2.0]) + 0.5 * torch.randn(40)
x_tr, y_tr, x_va, y_va = x[:30], y[:30], x[30:], y[30:]
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.4)
stopper = EarlyStopping(patience=2, min_delta=1e-3)
for epoch in range(30):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x_tr).squeeze(1), y_tr)
    loss.backward()
    opt.step()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(x_va).squeeze(1), y_va).item()
    print(f"epoch {epoch:2d} train {loss.item():.4f} val {val:.4f} bad {stopper.bad_epochs}")
    if stopper(val):
        print("stopping early at epoch", epoch)
        break
print("best validation loss:", round(stopper.best, 4))
print(callable(stopper), stopper.stop)
