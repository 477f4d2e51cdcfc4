# Two scalar-kernel special functions in float32: the normalized sinc (a windowed-sinc
# low-pass filter's taps) and the elementwise entropy -p log p of a distribution. PyTorch
# computes them with the C library's sinf / logf per element; the exact float32 values and
# gradients are printed.
import torch

n = torch.arange(-20, 21, dtype=torch.float32)
cutoff = 0.23
taps = 2 * cutoff * torch.special.sinc(2 * cutoff * n)
window = torch.hamming_window(41, periodic=False)
h = taps * window
print("taps", taps.tolist())
print("filter sum", h.sum().item())

x = torch.linspace(-6.3, 9.7, 161, requires_grad=True)
y = torch.sinc(x)
y.sum().backward()
print("sinc", y.tolist())
print("d sinc", x.grad.tolist())

torch.manual_seed(0)
p = torch.softmax(torch.randn(4, 30), dim=-1)
e = torch.special.entr(p)
print("entr row 0", e[0].tolist())
print("entropies", e.sum(-1).tolist())
print("edges", torch.special.entr(torch.tensor([0.0, -0.5, 1.0, float("inf"), 3e-39])).tolist())
