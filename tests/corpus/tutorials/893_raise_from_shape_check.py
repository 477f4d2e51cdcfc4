# A model-building helper that checks its input and re-raises a shape problem as a clearer
# ValueError "from" the original one, the way utility code in training scripts does.
import torch
import torch.nn as nn

torch.manual_seed(0)


def build_head(in_features, out_features):
    if in_features <= 0:
        raise ValueError(f"in_features must be positive, got {in_features}") from None
    return nn.Linear(in_features, out_features)


def forward_checked(layer, x):
    try:
        return layer(x)
    except RuntimeError as err:
        raise ValueError(f"input of shape {tuple(x.shape)} does not fit the layer") from err


head = build_head(4, 2)
x = torch.randn(3, 4, requires_grad=True)
y = forward_checked(head, x)
y.pow(2).sum().backward()
print(y.shape, x.grad.abs().sum() > 0)

for bad in [torch.randn(3, 5), torch.randn(2, 3)]:
    try:
        forward_checked(head, bad)
    except ValueError as e:
        print("refused:", e)

try:
    build_head(0, 2)
except ValueError as e:
    print("refused:", e, e.args)

try:
    raise KeyError("weights") from KeyError
except KeyError as e:
    print("key error:", e, repr(e))

try:
    raise ValueError("bad cause") from 3
except TypeError as e:
    print("type error:", e)
