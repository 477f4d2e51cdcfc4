# bfloat16 math in a small model: PyTorch's CPU kernels compute these functions of a bfloat16
# in float and round once; the gradients are bfloat16 arithmetic on those. Exact values are
# printed as floats.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
u = (torch.rand(8) * 1.6 - 0.8).to(torch.bfloat16)
funcs = {
    "tan": torch.tan, "atan": lambda t: torch.atan(4 * t), "asin": torch.asin,
    "acos": torch.acos, "atanh": torch.atanh, "asinh": lambda t: torch.asinh(3 * t),
    "acosh": lambda t: torch.acosh(t + 2), "log1p": torch.log1p, "expm1": torch.expm1,
    "exp2": lambda t: torch.exp2(5 * t), "log2": lambda t: torch.log2(t + 1),
    "log10": lambda t: torch.log10(t + 1), "lgamma": lambda t: torch.lgamma(3 * t + 3),
    "erfc": torch.erfc, "relu6": lambda t: F.relu6(8 * t), "hardtanh": F.hardtanh,
}
for name, f in funcs.items():
    x = u.clone().requires_grad_()
    y = f(x)
    y.sum().backward()
    print(f"{name:8s}", y.float().tolist(), x.grad.float().tolist())

print("digamma", torch.digamma(u + 2).float().tolist())
print("i0", torch.i0(3 * u).float().tolist())
m = torch.randn(3, 3).to(torch.bfloat16)
print("diagonal", m.diagonal().float().tolist())

# a bfloat16 layer with a tan squashing, one SGD step
w = (torch.randn(4, 3) * 0.3).to(torch.bfloat16).requires_grad_()
xb = torch.randn(5, 4).to(torch.bfloat16)
loss = torch.tan(torch.atan(xb @ w)).log1p().abs().mean()
loss.backward()
with torch.no_grad():
    w -= 0.1 * w.grad
print("loss", loss.item(), "w", w.float().sum().item())
