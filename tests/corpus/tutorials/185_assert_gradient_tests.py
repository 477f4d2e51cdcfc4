import torch

cases = [
    ("square", lambda t: t ** 2, lambda t: 2 * t),
    ("exp", torch.exp, torch.exp),
    ("sigmoid", torch.sigmoid, lambda t: torch.sigmoid(t) * (1 - torch.sigmoid(t))),
    ("wrong", torch.sin, lambda t: -torch.cos(t)),
]

x = torch.linspace(-1, 1, 5, requires_grad=True)
for name, f, df in cases:
    (g,) = torch.autograd.grad(f(x).sum(), x)
    try:
        assert torch.allclose(g, df(x.detach()), atol=1e-6), f"{name}: max error {(g - df(x.detach())).abs().max().item():.4f}"
        print(f"{name}: ok")
    except AssertionError as err:
        print("FAILED", err)
