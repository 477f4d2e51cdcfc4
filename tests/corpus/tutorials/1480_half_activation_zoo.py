# Comparing activation functions in half precision: how far each one lands from float32,
# and what their gradients look like when the whole computation stays in float16/bfloat16.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x32 = torch.randn(40) * 3

acts = {
    "sinc": torch.sinc,
    "softshrink": lambda t: F.softshrink(t, 0.3),
    "hardsigmoid": F.hardsigmoid,
    "leaky_relu": lambda t: F.leaky_relu(t, 0.2),
    "rrelu(eval)": nn.RReLU().eval(),
    "softplus": F.softplus,
    "logsigmoid": F.logsigmoid,
    "silu": nn.SiLU(),
    "mish": F.mish,
    "hardswish": F.hardswish,
    "elu": nn.ELU(alpha=0.7),
    "selu": F.selu,
    "celu": lambda t: F.celu(t, 1.3),
}

for dtype in (torch.float16, torch.bfloat16):
    print("=====", dtype)
    for name, fn in acts.items():
        x = x32.to(dtype).requires_grad_()
        y = fn(x)
        y.backward(torch.linspace(-1, 1, 40).to(dtype))
        ref = fn(x32)
        err = (y.float() - ref).abs().max().item()
        print(f"{name:12s} max |err| vs float32 = {err:.3e}")
        print("  y   :", y[:6].detach())
        print("  grad:", x.grad[27:33])
