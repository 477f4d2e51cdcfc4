# Plotting activation functions and their slopes is a classic first exercise: sample the
# x axis, push it through each activation and print the values a plot would draw.
import torch
import torch.nn.functional as F

xs = torch.linspace(-4.0, 4.0, steps=25, requires_grad=True)

curves = {
    "sigmoid": torch.sigmoid,
    "silu": F.silu,
    "softplus": F.softplus,
    "elu": F.elu,
    "mish": F.mish,
    "gelu (tanh)": lambda t: F.gelu(t, approximate="tanh"),
}

for name, fn in curves.items():
    ys = fn(xs)
    (slope,) = torch.autograd.grad(ys.sum(), xs)
    print(name)
    print("  values:", ys.tolist())
    print("  slopes:", slope.tolist())

# a batch of pre-activations, as a hidden layer would see them
torch.manual_seed(0)
h = torch.randn(3, 20) * 2
print(torch.sigmoid(h)[1].tolist())
print(F.silu(h).sum(dim=1).tolist())
print((h.abs() ** 1.5).mean().item())
