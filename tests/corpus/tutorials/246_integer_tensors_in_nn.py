# Integer tensors meet nn functions: which ones promote, which keep the dtype, which refuse.
import torch
import torch.nn.functional as F

counts = torch.tensor([[3, -1, 0], [2, 5, -4]])  # counts and labels often arrive as int64
print(counts.clamp(min=0.5))  # a float bound: the result is float
print(counts.clamp(0, 2), counts.int().clamp(max=1.5).dtype)
print(F.relu(counts), F.hardtanh(counts), F.relu6(counts * 3), sep="\n")
print(torch.logsumexp(counts, dim=1))
print(torch.addcmul(counts, counts, counts, value=2))
print(torch.lerp(counts, counts.flip(0), torch.tensor(0.25)))

checks = {
    "gelu": F.gelu,
    "softplus": F.softplus,
    "leaky_relu": F.leaky_relu,
    "layer_norm": lambda t: F.layer_norm(t, (3,)),
    "mse_loss": lambda t: F.mse_loss(t, t.flip(0)),
    "smooth_l1_loss": lambda t: F.smooth_l1_loss(t, t.flip(0)),
    "hypot": lambda t: torch.hypot(t, t),
    "lerp": lambda t: torch.lerp(t, t, 0.5),
    "bce": lambda t: F.binary_cross_entropy(t, t),
}
for name, fn in checks.items():
    try:
        fn(counts)
    except NotImplementedError as e:
        print(f"{name:15s} NotImplementedError: {e}")
print(F.mse_loss(counts.float(), counts.flip(0)))

mask = counts > 0
for name, fn in {
    "relu": F.relu,
    "hardtanh": F.hardtanh,
    "abs": torch.abs,
    "argmax": torch.argmax,
    "topk": lambda m: m.topk(1),
    "median": torch.median,
    "trace": torch.trace,
    "matmul": lambda m: m @ m.T,
    "dot": lambda m: torch.dot(m[0], m[1]),
}.items():
    try:
        fn(mask)
        print(name, "ok")
    except (RuntimeError, NotImplementedError) as e:
        print(f"{name:9s} {type(e).__name__}: {e}")
for bad in (lambda: counts.clone().clamp_(0.5), lambda: torch.addcdiv(counts, counts, counts)):
    try:
        bad()
    except RuntimeError as e:
        print(str(e)[:70])
