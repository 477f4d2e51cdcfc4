# A training script's own exception classes: raised with a message or a payload, caught by
# their own class, by a base of theirs, or by the built-in class they derive from.
import torch
import torch.nn as nn


class TrainingError(Exception):
    """Base class of this script's errors."""


class ShapeMismatch(TrainingError, ValueError):
    pass


class Diverged(TrainingError):
    def __init__(self, step, loss):
        super().__init__(f"loss became {loss} at step {step}")
        self.step = step
        self.loss = loss


class BadConfig(KeyError):
    def __init__(self, key):
        self.key = key  # (no super().__init__: args are still the call's)

    def __str__(self):
        return f"missing config key {self.key!r}"


def check_batch(x, in_features):
    if x.shape[-1] != in_features:
        raise ShapeMismatch(f"expected {in_features} features, got {x.shape[-1]}")


torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=10.0)
x, y = torch.randn(8, 3), torch.randn(8, 1)
try:
    check_batch(torch.randn(2, 5), model.in_features)
except ValueError as e:
    print("ValueError caught:", type(e).__name__, e, e.args, repr(e))
try:
    for step in range(100):
        loss = ((model(x) - y) ** 2).mean()
        if not torch.isfinite(loss) or loss.item() > 1e6:
            raise Diverged(step, round(loss.item(), 1) if torch.isfinite(loss) else loss.item())
        opt.zero_grad()
        loss.backward()
        opt.step()
except TrainingError as e:
    print(type(e).__name__, e.step, e.loss > 1e6, str(e)[:20], isinstance(e, Exception))
    print(isinstance(e, Diverged), isinstance(e, ShapeMismatch), isinstance(e, ValueError))
try:
    raise BadConfig("lr")
except KeyError as e:
    print(e, e.args, e.key, repr(e))
for exc in (ShapeMismatch, Diverged(3, 1.5), BadConfig):
    try:
        if exc is BadConfig:
            raise exc("momentum") from None
        raise exc
    except (ShapeMismatch, BadConfig) as e:
        print("caught", type(e).__name__, repr(str(e)))
    except TrainingError as e:
        print("base caught", type(e).__name__, e.args)
print(ShapeMismatch, TrainingError.__name__, issubclass(ShapeMismatch, ValueError))
