# fit() with a loss_batch helper that steps only when given an optimizer, and a validation
# loss averaged with numpy over the batch sizes, under torch.no_grad().
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn, optim

torch.manual_seed(13)
x = torch.randn(60, 3)
y = (x.sum(dim=1) > 0).long()
x_train, y_train = x[:45], y[:45]
x_valid, y_valid = x[45:], y[45:]


def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)


def batches(xs, ys, bs):
    return [(xs[i : i + bs], ys[i : i + bs]) for i in range(0, len(xs), bs)]


def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)

        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = np.sum(np.multiply(losses, nums)) / np.sum(nums)
        print(epoch, f"{val_loss:.6f}", nums)


model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 2))
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
fit(6, model, F.cross_entropy, opt, batches(x_train, y_train, 10), batches(x_valid, y_valid, 10))
