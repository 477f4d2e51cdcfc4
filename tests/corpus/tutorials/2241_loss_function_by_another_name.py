# A training helper takes the loss function as a value; the errors of a wrong call name the
# function itself, whatever name the program gave it.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.functional import mse_loss as squared_error

torch.manual_seed(3)
pred = torch.randn(4, dtype=torch.float64, requires_grad=True)
target = torch.randn(4, dtype=torch.float64)
weights = torch.tensor([1.0, 2.0, 0.5, 1.0], dtype=torch.float64)

criterion = F.smooth_l1_loss
mean_sq = nn.functional.mse_loss
loss = criterion(pred, target, beta=0.5)
loss.backward()
print(f"{loss.item():.6f}", pred.grad)

attempts = {
    "weight keyword": lambda: criterion(pred, target, weight=weights),
    "target missing": lambda: criterion(pred),
    "too many": lambda: mean_sq(pred, target, None, None, "sum", None, 7),
    "imported alias": lambda: squared_error(pred, target, reduce_mode="sum"),
}
for what, attempt in attempts.items():
    try:
        attempt()
    except TypeError as e:
        print(f"{what}: {e}")


class Trainer:
    def __init__(self, loss_fn):
        self.loss_fn = loss_fn

    def step(self, x, y, **options):
        return self.loss_fn(x, y, **options)


t = Trainer(F.huber_loss)
print(round(t.step(pred, target, delta=0.3).item(), 6))
try:
    t.step(pred, target, beta=0.3)
except TypeError as e:
    print("Trainer:", e)

total = torch.sum
try:
    total(pred, axis=0, keepdims=True, squeeze=False)
except TypeError as e:
    print(str(e).splitlines()[0])

square = lambda v: v * v
try:
    square(pred, target)
except TypeError as e:
    print(e)


def weighted(x, y, w=None):
    return ((x - y) ** 2 * (1 if w is None else w)).mean()


metric = weighted
try:
    metric(pred, target, weights=weights)
except TypeError as e:
    print(e)

# the same for a layer function kept in a table and an optimizer's bound method
ops = {"drop": F.dropout, "act": F.relu}
try:
    ops["drop"](pred, 0.5, True, False, "extra")
except TypeError as e:
    print(e)
opt = torch.optim.SGD([pred], lr=0.1)
take_step = opt.step
try:
    take_step(None, 1)
except TypeError as e:
    print(e)
