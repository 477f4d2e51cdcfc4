# An old "named tensors" snippet pasted into PyTorch 2.13, where named tensors are gone: each
# line shows the error PyTorch now gives, and the positional spelling that replaces it.
import torch
import torch.nn.functional as F

x = torch.arange(6.0).reshape(2, 3)  # was: torch.zeros(2, 3, names=("N", "C"))

attempts = [
    ("zeros(names=)", lambda: torch.zeros(2, 3, names=("N", "C"))),
    ("randn(names=)", lambda: torch.randn(2, 3, names=("N", "C"))),
    ("refine_names", lambda: x.refine_names("N", "C")),
    ("x.names", lambda: x.names),
    ("sum('C')", lambda: x.sum("C")),
    ("mean(dim='C')", lambda: x.mean(dim="C")),
    ("cumsum('C')", lambda: x.cumsum("C")),
    ("max('C')", lambda: x.max("C")),
    ("squeeze('C')", lambda: x.squeeze("C")),
    ("softmax", lambda: F.softmax(x, dim="C")),
    ("log_softmax", lambda: x.log_softmax("C")),
    ("argmax", lambda: x.argmax("C")),
    ("select", lambda: x.select("C", 0)),
    ("size", lambda: x.size("C")),
    ("std", lambda: x.std("C")),
    ("all", lambda: (x > 0).all("C")),
    ("cumsum(1.5)", lambda: x.cumsum(1.5)),
]
for label, attempt in attempts:
    try:
        attempt()
        print(label, "ran")
    except (TypeError, AttributeError) as e:
        print(f"{label}: {type(e).__name__}: {e}")

# the positional spelling
C = 1
print(x.sum(C), x.cumsum(C)[1], F.softmax(x, dim=C).argmax(C), x.size(C))
