# Forum question: "why does torch.exp(2.0) fail when math.exp(2.0) works?"
# torch's functions want tensors; Python numbers go through torch.tensor first.
import math

import torch
import torch.nn.functional as F

x = torch.tensor([0.5, 1.5, 2.5], requires_grad=True)

attempts = [
    ("torch.digamma(2.0)", lambda: torch.digamma(2.0)),
    ("torch.erfc(1.0)", lambda: torch.erfc(1.0)),
    ("torch.logit(0.5)", lambda: torch.logit(0.5)),
    ("torch.nansum(3.0)", lambda: torch.nansum(3.0)),
    ("torch.reshape(2.0, (1,))", lambda: torch.reshape(2.0, (1,))),
    ("F.one_hot(3, 5)", lambda: F.one_hot(3, 5)),
    ("torch.sum('abc')", lambda: torch.sum("abc")),
    ("torch.max([1.0, 2.0])", lambda: torch.max([1.0, 2.0])),
    ("torch.clamp(1.5, 0.0, 1.0)", lambda: torch.clamp(1.5, 0.0, 1.0)),
    ("torch.squeeze('a', 0)", lambda: torch.squeeze("a", 0)),
    ("torch.where(x > 1, 1.0, 0.0)", lambda: torch.where(x > 1, 1.0, 0.0)),
    ("torch.pow(2, x)", lambda: torch.pow(2, x)),
    ("torch.add(x, 1)", lambda: torch.add(x, 1)),
    ("F.relu(-1.0)", lambda: F.relu(-1.0)),
    ("F.mse_loss(1.0, x)", lambda: F.mse_loss(1.0, x)),
    ("torch.polygamma(1.5, x)", lambda: torch.polygamma(1.5, x)),
    ("torch.meshgrid(1.0)", lambda: torch.meshgrid(1.0)),
    ("torch.lerp(0.0, x, 0.5)", lambda: torch.lerp(0.0, x, 0.5)),
]
for text, attempt in attempts:
    try:
        out = attempt()
        print(f"{text} -> {out}")
    except (TypeError, AttributeError) as e:
        print(f"{text} -> {type(e).__name__}: {e}")

# what the answer recommends: make the number a tensor (or use math for plain numbers)
print(torch.digamma(torch.tensor(2.0)), math.exp(2.0), torch.exp(torch.tensor(2.0)))
y = torch.clamp(torch.tensor(1.5), 0.0, 1.0)
print(y)
loss = F.mse_loss(torch.full_like(x, 1.0), x)
loss.backward()
print(loss, x.grad)
