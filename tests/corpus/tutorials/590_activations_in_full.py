# Activation functions side by side on a batch of pre-activations, values and gradients
# printed with every digit (the float32 bits of PyTorch's own kernels).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(590)
z = torch.randn(5, 37) * 4
acts = {
    "sigmoid": torch.sigmoid,
    "silu": F.silu,
    "gelu": F.gelu,
    "gelu_tanh": lambda t: F.gelu(t, approximate="tanh"),
    "elu": F.elu,
    "selu": nn.SELU(),
    "celu": nn.CELU(alpha=0.5),
    "softplus": nn.Softplus(beta=2.0, threshold=5.0),
    "logsigmoid": nn.LogSigmoid(),
    "mish": nn.Mish(),
}
for name, act in acts.items():
    x = z.clone().requires_grad_(True)
    y = act(x)
    y.pow(2).sum().backward()
    print(name, y[0, :3].tolist(), y[4, -3:].tolist())
    print("  grad", x.grad[1, :3].tolist(), x.grad[4, -3:].tolist())
    print("  sum", y.sum().item(), x.grad.sum().item())
