import torch

# Complex signals: PyTorch computes some functions on them and refuses others with its
# own errors, which a program can catch and report.
z = torch.tensor([3 + 4j, -1 - 1j, 2j])

print(torch.sgn(z))
print(z.abs())

attempts = {
    "sign": lambda: torch.sign(z),
    "sign method": lambda: z.sign(),
    "clamp": lambda: torch.clamp(z, min=0),
    "relu": lambda: torch.relu(z),
    "floor": lambda: z.floor(),
    "trunc": lambda: torch.trunc(z.to(torch.complex128)),
    "argmax": lambda: z.argmax(),
    "sort": lambda: torch.sort(z),
    "maximum": lambda: torch.maximum(z, z),
    "atan2": lambda: torch.atan2(z, z),
    "signbit": lambda: torch.signbit(z),
    "isposinf": lambda: torch.isposinf(z),
}
for name, fn in attempts.items():
    try:
        fn()
        print(name, "ok")
    except (RuntimeError, NotImplementedError) as e:
        print(f"{name}: {type(e).__name__}: {e}")

# What works instead: compare magnitudes, or work on the real parts.
print(z[z.abs().argmax()])
print(torch.clamp(z.real, min=0))
