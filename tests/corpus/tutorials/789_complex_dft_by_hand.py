# A discrete Fourier transform written as a matrix product with exp(-2j*pi*k*n/N), and the
# gradient of the power spectrum with respect to the real signal (values below 1e-9, the
# rounding noise of sums that cancel, shown as 0).
import math
import torch


def clean(t):
    return torch.where(t.abs() < 1e-9, torch.zeros_like(t), t)


N = 8
n = torch.arange(N, dtype=torch.float64)
k = n.reshape(N, 1)
W = torch.exp(-2j * math.pi * k * n / N)
print(W.dtype, W.shape)
print(W[1])

signal = torch.cos(2 * math.pi * n / N) + 0.5 * torch.sin(6 * math.pi * n / N)
signal.requires_grad_()
X = W @ signal.to(torch.complex128)
spectrum = torch.view_as_real(X)
print(clean(spectrum.detach()))
power = (X * X.conj()).real
print(clean(power.detach()))
power[1].backward()
print(clean(signal.grad))

inverse = (W.conj() @ X) / N
print(torch.allclose(inverse.real, signal), bool(inverse.imag.abs().max() < 1e-12))
