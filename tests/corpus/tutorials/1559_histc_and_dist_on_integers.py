# histc and dist want floating point data; a notebook that feeds them integer labels or
# counts shows PyTorch's errors (caught), then converts.
import torch

labels = torch.tensor([0, 2, 2, 1, 2], dtype=torch.int64)
flags = torch.tensor([True, False, True])
for name, f in [
    ("histc labels", lambda: torch.histc(labels, bins=3, min=0, max=2)),
    ("histc uint8", lambda: torch.histc(labels.to(torch.uint8), bins=3)),
    ("histc flags", lambda: torch.histc(flags)),
    ("dist labels", lambda: torch.dist(labels, labels.flip(0))),
    ("dist int8", lambda: torch.dist(labels.to(torch.int8), labels.to(torch.int8), p=1)),
]:
    try:
        print(name, f())
    except (RuntimeError, NotImplementedError) as e:
        print(name, "->", type(e).__name__, e)
print(torch.histc(labels.float(), bins=3, min=0, max=2))
print(torch.dist(labels.float(), labels.flip(0).float()), torch.dist(labels, labels.float(), p=1))
