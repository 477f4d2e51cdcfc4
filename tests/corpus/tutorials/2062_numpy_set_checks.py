# NumPy's set functions in the checks course notebooks run after training a classifier:
# every prediction is one of the labels (np.isin), which classes were never predicted
# (np.setdiff1d), which both sets share (np.intersect1d, with positions), and their union.
import numpy as np
import torch
from torch import nn

torch.manual_seed(7)
features = torch.randn(40, 3, dtype=torch.float64)
labels = (features[:, 0] + 0.5 * features[:, 1] > 0).long() + (features[:, 2] > 1).long()

model = nn.Linear(3, 3).double()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for step in range(30):
    loss = nn.functional.cross_entropy(model(features), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(round(loss.item(), 6))

pred = model(features).argmax(dim=1).numpy()
y = labels.numpy()
classes = np.arange(3)
assert np.isin(pred, classes).all(), "a prediction outside the classes"
print(np.isin(pred, classes).all(), np.isin(classes, pred))
print("never predicted:", np.setdiff1d(classes, pred))
print("seen in both:", np.intersect1d(pred, y))
common, where_pred, where_y = np.intersect1d(pred[:8], y[:8], return_indices=True)
print(common, where_pred, where_y)
print(np.union1d(pred[:5], [7, 9]), np.isin(pred[:6], [0], invert=True))
wrong = ~np.isin(np.arange(len(y)), np.flatnonzero(pred == y))
print("wrong rows:", np.flatnonzero(wrong)[:6], wrong.sum())
