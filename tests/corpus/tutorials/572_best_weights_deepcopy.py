# Keep the best weights seen so far with copy.deepcopy(model.state_dict()), with a loader that
# has its own generator (its shuffles are PyTorch's epoch after epoch).
import copy

import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
X = torch.randn(40, 3)
y = X @ torch.tensor([[1.0], [-1.0], [2.0]]) + 0.1 * torch.randn(40, 1)
g = torch.Generator().manual_seed(11)
loader = DataLoader(TensorDataset(X, y), batch_size=8, shuffle=True, generator=g)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
best, best_state = float("inf"), None
for epoch in range(4):
    order = []
    for xb, yb in loader:
        order.append(int(xb[0, 0] * 100))
        loss = torch.nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        full = torch.nn.functional.mse_loss(model(X), y).item()
    if full < best:
        best, best_state = full, copy.deepcopy(model.state_dict())
    print(epoch, order, round(full, 4))
model.load_state_dict(best_state)
print(round(best, 4), list(best_state.keys()))
snapshot = copy.deepcopy({"w": model[0].weight, "steps": [1, 2], "tag": "best"})
model[0].weight.data.zero_()
print(snapshot["w"].abs().sum() > 0, snapshot["steps"], copy.copy([1, [2]]))
