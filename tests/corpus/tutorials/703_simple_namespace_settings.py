# A notebook's settings in a types.SimpleNamespace (in place of argparse), a training loop
# that yields its progress as SimpleNamespace records, and vars() of the settings printed.
from types import SimpleNamespace

import torch
import torch.nn as nn

config = SimpleNamespace(lr=0.05, epochs=4, hidden=8, seed=0)
print(config)
torch.manual_seed(config.seed)

X = torch.randn(32, 2)
y = (X[:, :1] * 2 - X[:, 1:] + 0.1).tanh()
model = nn.Sequential(nn.Linear(2, config.hidden), nn.Tanh(), nn.Linear(config.hidden, 1))
opt = torch.optim.SGD(model.parameters(), lr=config.lr, momentum=0.9)


def train(cfg):
    for epoch in range(cfg.epochs):
        for start in range(0, len(X), 8):
            xb, yb = X[start:start + 8], y[start:start + 8]
            loss = nn.functional.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        yield SimpleNamespace(epoch=epoch, loss=loss.detach(), lr=opt.param_groups[0]["lr"])


history = list(train(config))
for record in history:
    print(record.epoch, round(record.loss.item(), 5), record.lr)
print(history[-1])
config.lr /= 10
config.note = "fine-tune"
del config.seed
print(vars(config), config == SimpleNamespace(lr=0.005, epochs=4, hidden=8, note="fine-tune"))
