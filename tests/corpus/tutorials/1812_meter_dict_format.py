# Training-script helpers that read an object's __dict__: a running-average meter whose
# __str__ formats its own fields (`format(**self.__dict__)`), and a settings object filled
# from keyword arguments with `self.__dict__.update(...)`.
import torch
import torch.nn as nn


class Meter:
    def __init__(self, name, fmt=":f"):
        self.name = name
        self.fmt = fmt
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def __str__(self):
        text = "{name} {val" + self.fmt + "} ({avg" + self.fmt + "})"
        return text.format(**self.__dict__)


class Settings:
    def __init__(self, **kwargs):
        self.lr = 0.1
        self.epochs = 3
        self.__dict__.update(kwargs)

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in sorted(self.__dict__.items()))
        return f"Settings({inner})"


cfg = Settings(lr=0.05, batch=4)
print(cfg, cfg.batch)
torch.manual_seed(11)
model = nn.Linear(2, 1).double()
opt = torch.optim.SGD(model.parameters(), lr=cfg.lr)
x = torch.linspace(-1, 1, 8, dtype=torch.float64).reshape(4, 2)
y = x[:, :1] - 2 * x[:, 1:]
losses = Meter("Loss", ":.4e")
for epoch in range(cfg.epochs):
    losses.reset()
    for i in range(0, 4, cfg.batch // 2):
        loss = nn.functional.mse_loss(model(x[i:i + 2]), y[i:i + 2])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.update(loss.item(), 2)
    print(f"epoch {epoch}:", losses)
print(sorted(losses.__dict__), losses.__dict__["count"])
losses.__dict__["name"] = "MSE"  # the same table: the attribute changes
print(losses.name, vars(losses) is losses.__dict__)
