# In-place fused products: the accumulator must already have the result's shape.
import torch

acc = torch.zeros(2, 3)
a = torch.arange(8.0).view(2, 4) / 4
b = torch.ones(4, 3)
acc.addmm_(a, b, beta=0.5, alpha=2.0)
print(acc)

for label, target, fn in [
    ("row bias", torch.zeros(3), lambda t: t.addmm_(a, b)),
    ("one-element vector", torch.zeros(1), lambda t: t.addmv_(a, torch.ones(4))),
    ("2-D into batched", torch.zeros(2, 5), lambda t: t.baddbmm_(torch.ones(3, 2, 4), torch.ones(3, 4, 5))),
]:
    try:
        fn(target)
    except RuntimeError as err:
        print(label, "->", err)

batch = torch.ones(3, 2, 5)
batch.baddbmm_(torch.ones(3, 2, 4), torch.ones(3, 4, 5) / 2, beta=0.0)
vec = torch.full((2,), 1.0)
vec.addmv_(a, torch.ones(4))
print(batch[0], vec)
