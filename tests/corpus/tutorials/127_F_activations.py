import torch
import torch.nn.functional as F

x = torch.tensor([-3.0, -1.0, -0.25, 0.0, 0.25, 1.0, 3.0], requires_grad=True)
funcs = [
    ("elu", lambda t: F.elu(t, alpha=1.0)),
    ("selu", F.selu),
    ("celu", lambda t: F.celu(t, alpha=2.0)),
    ("hardtanh", lambda t: F.hardtanh(t, -0.5, 0.5)),
    ("relu6", F.relu6),
    ("softsign", F.softsign),
    ("mish", F.mish),
    ("hardswish", F.hardswish),
    ("hardsigmoid", F.hardsigmoid),
    ("silu", F.silu),
    ("softplus", lambda t: F.softplus(t, beta=2.0)),
    ("gelu_tanh", lambda t: F.gelu(t, approximate="tanh")),
]
for name, fn in funcs:
    x.grad = None
    fn(x).sum().backward()
    print(f"{name:12s}{x.grad}")

print(F.softmin(x.detach(), dim=0))
print(F.log_softmax(x.detach(), dim=0))
