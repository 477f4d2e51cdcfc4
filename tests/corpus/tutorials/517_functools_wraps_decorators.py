# Decorators written with functools.wraps: the wrapper keeps the wrapped function's name
import functools

import torch
import torch.nn as nn

history = []


def record_loss(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        loss = fn(*args, **kwargs)
        history.append((fn.__name__, round(loss.item(), 5)))
        return loss

    return wrapper


def no_grad_eval(fn):
    @functools.wraps(fn)
    @torch.no_grad()
    def wrapper(model, *args):
        was = model.training
        model.eval()
        try:
            return fn(model, *args)
        finally:
            model.train(was)

    return wrapper


@record_loss
def mse(pred, target):
    return ((pred - target) ** 2).mean()


@no_grad_eval
def evaluate(model, x, y):
    return mse(model(x), y)


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 8), nn.Dropout(0.2), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(16, 2)
y = x.sum(dim=1, keepdim=True)
for epoch in range(3):
    opt.zero_grad()
    loss = mse(model(x), y)
    loss.backward()
    opt.step()
val = evaluate(model, x, y)
print(val.requires_grad, model.training)
print(mse.__name__, evaluate.__name__)
print(history)
