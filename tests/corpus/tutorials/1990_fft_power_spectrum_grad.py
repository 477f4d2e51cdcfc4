# Gradients through a power spectrum: fit a signal so that its spectrum matches a target,
# the way audio / signal-processing notebooks use torch.fft.
import math

import torch

torch.manual_seed(0)
n = 16
t = torch.arange(n, dtype=torch.float64) / n
clean = torch.sin(2 * math.pi * 3 * t) + 0.5 * torch.cos(2 * math.pi * 5 * t)

spec = torch.fft.rfft(clean)
print("bins:", spec.shape, spec.dtype)
print("peak bins:", spec.abs().round(decimals=4))
freqs = torch.fft.rfftfreq(n, d=1.0 / n)
print("frequencies:", freqs)

signal = torch.zeros(n, dtype=torch.float64, requires_grad=True)
target = spec.abs() ** 2
opt = torch.optim.SGD([signal], lr=0.01)
for step in range(3):
    opt.zero_grad()
    power = torch.fft.rfft(signal + clean * 0.5).abs() ** 2
    loss = ((power - target) ** 2).mean()
    loss.backward()
    opt.step()
    print(f"step {step}: loss={loss.item():.6f} grad norm={signal.grad.norm().item():.6f}")
print(power.grad_fn.name(), power.grad_fn.next_functions[0][0].next_functions[0][0].name())

# the three normalizations: backward (default), ortho and forward
x = torch.tensor([1.0, 2.0, 0.0, -1.0, 3.0, 0.5], dtype=torch.float64, requires_grad=True)
for norm in ("backward", "ortho", "forward"):
    X = torch.fft.fft(x, norm=norm)
    back = torch.fft.ifft(X, norm=norm).real
    print(norm, X.abs().sum().item() > 0, torch.allclose(back, x))
    (g,) = torch.autograd.grad(X.real.sum() + 2 * X.imag.sum(), x)
    print("  grad:", g)

# n= pads or cuts the signal, and the gradient flows back only to what was used
y = torch.fft.fft(x, n=4)
y.abs().sum().backward()
print(y.grad_fn.next_functions[0][0].name(), x.grad)
x.grad = None
z = torch.fft.irfft(torch.fft.rfft(x), n=10)
print(z.shape, z.grad_fn.name())
z.pow(2).sum().backward()
print(x.grad)

# two dimensions, complex inputs, and the shift helpers
img = torch.arange(12, dtype=torch.float64).reshape(3, 4).requires_grad_()
F2 = torch.fft.fft2(img)
print(F2.real.round(decimals=4))
print(torch.fft.fftshift(F2.abs(), dim=(-2, -1)).round(decimals=3))
F2.abs().sum().backward()
print(img.grad.round(decimals=4))
print(torch.fft.ifftshift(torch.fft.fftshift(torch.arange(7))))
print(torch.fft.fftfreq(5, dtype=torch.float64))

# what PyTorch says for a wrong call
for bad in (
    lambda: torch.fft.fft(x, n=0),
    lambda: torch.fft.rfft(F2),
    lambda: torch.fft.fft2(x),
    lambda: torch.fft.fft(x, norm="unitary"),
    lambda: torch.fft.fftn(img, s=(2, 2, 2)),
):
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__ + ":", e)
