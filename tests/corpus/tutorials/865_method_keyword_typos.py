# Keyword typos in tensor method calls, and the errors PyTorch's argument parser answers with
# (a forum thread's collection: numpy's names where torch wants its own, misspelled options).
import torch

torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)

typos = [
    lambda: x.sum(axes=0),
    lambda: x.mean(keepdims_=True),
    lambda: x.clamp(lower=0.0),
    lambda: x.clamp(minimum=-1.0, maximum=1.0),
    lambda: x.max(dimension=1),
    lambda: x.min(axis_=0),
    lambda: x.std(ddof=1),
    lambda: x.var(unbias=False),
    lambda: x.pow(2, foo=1),
    lambda: x.add(x, beta=2),
    lambda: torch.relu(x, inplace=True),
    lambda: x.relu(inplace=True),
]
for typo in typos:
    try:
        typo()
        print("ran")
    except TypeError as e:
        print(f"TypeError: {e}")

# the names that do work
print(x.sum(dim=0).shape, x.mean(dim=1, keepdim=True).shape, x.clamp(min=-1.0, max=1.0).shape)
print(x.max(dim=1).indices, x.std(dim=0, unbiased=False).shape, x.var(correction=0).item() > 0)
print(x.sum(axis=0).shape, torch.sum(x, axis=1, keepdims=True).shape)
