# Labels made with NumPy boolean masks before the tensors exist: `&` keeps the points inside a
# band, `|` the ones outside it, `^` flips a mask; the labels become a float32 tensor and a
# logistic model learns them.
import numpy as np
import torch
import torch.nn as nn

np.random.seed(3)
x = np.random.uniform(-3, 3, size=(40, 1)).astype(np.float32)
inside = (x[:, 0] > -1) & (x[:, 0] < 1)
outside = (x[:, 0] <= -1) | (x[:, 0] >= 1)
print(inside.sum(), outside.sum(), (inside ^ outside).all())
print(np.array([6, 5, 4]) & 3, np.array([1, 2]) | 4, (x[:4, 0] > 0) ^ True)

labels = torch.from_numpy(inside.astype(np.float32)).unsqueeze(1)
features = torch.from_numpy(x ** 2)
print(labels[:6].T, labels.dtype, features.dtype)

torch.manual_seed(0)
model = nn.Linear(1, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
loss_fn = nn.BCEWithLogitsLoss()
for epoch in range(20):
    opt.zero_grad()
    loss = loss_fn(model(features), labels)
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        print(epoch, round(loss.item(), 5))

try:
    x & 1
except TypeError as e:
    print("TypeError:", e)
