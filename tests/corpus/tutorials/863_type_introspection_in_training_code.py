# A training utility that logs what it was given by class: the model, its layers, the
# optimizer and scheduler, custom autograd Functions, and checks the classes it accepts.
import torch
import torch.nn as nn


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 3), nn.Tanh())
        self.head = nn.Linear(3, 1)

    def forward(self, x):
        return self.head(Square.apply(self.body(x)))


def describe(obj):
    return f"{type(obj).__name__} ({type(obj).__module__})"


torch.manual_seed(0)
model = Regressor()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2)
print(describe(model), "|", describe(model.head), "|", type(opt).__name__)
print([type(m).__name__ for m in model.modules()])
print(type(Square), type(Regressor), type(torch.optim.Adam), type(sched).__name__)
print(
    issubclass(torch.optim.Adam, torch.optim.Adam),
    issubclass(type(opt), torch.optim.Optimizer),
    issubclass(torch.optim.Adam, torch.optim.SGD),
    issubclass(torch.optim.AdamW, torch.optim.Adam),
)
print(
    issubclass(torch.optim.lr_scheduler.StepLR, torch.optim.lr_scheduler.LRScheduler),
    isinstance(sched, torch.optim.lr_scheduler.LRScheduler),
    isinstance(opt, torch.optim.Adam),
)
print(issubclass(Square, torch.autograd.Function), issubclass(Regressor, nn.Module))
try:
    issubclass(opt, torch.optim.Optimizer)
except TypeError as e:
    print("TypeError:", e)

x = torch.randn(6, 2)
y = torch.randn(6, 1)
for step in range(4):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    sched.step()
    print(step, round(loss.item(), 4), sched.get_last_lr(), type(loss.grad_fn).__name__)
