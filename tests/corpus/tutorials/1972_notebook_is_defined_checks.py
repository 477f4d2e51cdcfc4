# Notebook cells that may run twice: "is this name defined yet?" written with
# `'name' in globals()` / `in locals()` / `in dir()`, before and after the model exists,
# inside a function and at the top level.
import torch
import torch.nn as nn

torch.manual_seed(0)

if 'model' in globals():
    del model  # noqa: F821
print("model defined before the cell:", 'model' in globals())

model = nn.Linear(3, 1)
print("model defined after the cell:", 'model' in locals(), 'model' not in globals())

if 'optimizer' not in locals():
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
print("optimizer:", type(optimizer).__name__, 'optimizer' in dir(), 'scheduler' in vars())


def train_step(x, y, history=None):
    if 'losses' not in locals():
        losses = []
    pred = model(x)  # noqa: F821
    loss = ((pred - y) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(round(loss.item(), 4))
    print("inside:", 'loss' in locals(), 'history' in locals(), 'model' in locals(),
          'model' in globals())
    return losses


x = torch.arange(12, dtype=torch.float64).reshape(4, 3).float() / 10
y = x.sum(dim=1, keepdim=True)
print(train_step(x, y))
print(train_step(x, y))

del model
print("after del:", 'model' in globals(), '__name__' in globals(), 'print' in globals())
