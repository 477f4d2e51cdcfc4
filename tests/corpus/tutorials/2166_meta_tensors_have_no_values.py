# Everything that needs a meta tensor's values fails, as in PyTorch; shape work goes on.
import torch

probe = torch.ones(2, 3, device="meta")
checks = [
    ("if", lambda: "big" if probe.sum() > 0 else "small"),
    ("float", lambda: float(probe.mean())),
    ("allclose", lambda: torch.allclose(probe, probe)),
    ("equal", lambda: torch.equal(probe, probe)),
    ("copy onto cpu", lambda: torch.zeros(2, 3).copy_(probe)),
    ("numpy", lambda: probe.numpy()),
    ("nonzero", lambda: probe.nonzero()),
    ("mask", lambda: probe[probe > 0]),
]
for name, check in checks:
    try:
        check()
        print(name, "ran")
    except (RuntimeError, NotImplementedError, TypeError) as e:
        print(name, type(e).__name__, str(e).splitlines()[0][:60])

filled = probe.clone().copy_(torch.zeros(2, 3))
print(filled, probe.argmax(dim=1), probe.max(dim=1).values)
print(probe[torch.tensor([True, False])].shape, probe.isnan().any())
