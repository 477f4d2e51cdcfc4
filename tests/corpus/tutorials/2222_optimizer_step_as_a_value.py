# Handing an optimizer's step around as a value (a training helper taking `step_fn`), printing
# it, and the TypeError of a step called with the wrong arguments, as one sees when passing
# the loss instead of a closure.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(2, 1)
nn.init.constant_(model.weight, 0.5)
nn.init.zeros_(model.bias)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
y = torch.tensor([[1.0], [2.0]])

for make in (
    lambda p: torch.optim.SGD(p, lr=0.1),
    lambda p: torch.optim.Adam(p, lr=0.1),
    lambda p: torch.optim.AdamW(p, lr=0.1),
    lambda p: torch.optim.RMSprop(p, lr=0.1),
):
    opt = make(model.parameters())
    step_fn, clear_fn = opt.step, opt.zero_grad
    print(type(opt).__name__, step_fn.__name__, clear_fn.__name__, step_fn == opt.step)
    print(str(step_fn).split(" of ")[0])

opt = torch.optim.SGD(model.parameters(), lr=0.01)


def train_step(step_fn, zero_fn):
    zero_fn()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    step_fn()
    return loss.item()


print([round(train_step(opt.step, opt.zero_grad), 6) for _ in range(3)])
loss = ((model(x) - y) ** 2).mean()
for bad in (lambda: opt.step(loss, 1), lambda: opt.step(closure=None, lr=0.1)):
    try:
        bad()
    except TypeError as e:
        print("TypeError:", e)
lbfgs = torch.optim.LBFGS(model.parameters())
print(str(lbfgs.step).split(" of ")[0])
try:
    lbfgs.step()
except TypeError as e:
    print("TypeError:", e)

# the other methods of optimizers and schedulers called wrongly: CPython's words
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)
for bad in (
    lambda: opt.zero_grad(True, False),
    lambda: opt.add_param_group(),
    lambda: sched.step(1, 2),
    lambda: sched.get_last_lr(0),
    lambda: plateau.step(),
):
    try:
        bad()
    except TypeError as e:
        print("TypeError:", e)
