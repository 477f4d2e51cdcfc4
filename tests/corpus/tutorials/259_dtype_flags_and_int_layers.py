# Code that checks a tensor's dtype before choosing what to do, and integer inputs given to
# nn functions.
import torch
import torch.nn.functional as F


def describe(t):
    d = t.dtype
    kind = "complex" if d.is_complex else "float" if d.is_floating_point else "integer"
    return f"{d}: {kind}, signed={d.is_signed}, {d.itemsize} bytes"


for t in (torch.ones(2), torch.ones(2, dtype=torch.float64), torch.arange(3), torch.tensor([True]),
          torch.zeros(2, dtype=torch.uint8), torch.zeros(1, dtype=torch.complex64)):
    print(describe(t))

x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
r = x.repeat_interleave(2)
print(r)
r.sum().backward()
print(x.grad)
ids = torch.tensor([[1, -2, 3, 0]])
print(F.threshold(ids, 0.5, -1))
for name, fn in {
    "glu": lambda: F.glu(ids),
    "group_norm": lambda: F.group_norm(ids[None], 1),
    "max_pool1d": lambda: F.max_pool1d(ids[None], 2),
    "prelu": lambda: F.prelu(ids, torch.tensor([0.25])),
    "rrelu": lambda: F.rrelu(ids),
}.items():
    try:
        fn()
    except (RuntimeError, NotImplementedError) as e:
        print(f"{name}: {type(e).__name__}: {e}")
print(F.max_pool1d(ids[None].float(), 2), F.max_pool1d(ids[None], 2, return_indices=True))
