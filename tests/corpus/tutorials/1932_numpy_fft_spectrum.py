# Finding the dominant frequency of a signal before fitting it with a small model: the
# spectrum comes from numpy.fft, imported the three ways notebooks do it.
import numpy as np
import numpy.fft as nf
from numpy.fft import rfft, rfftfreq, irfft
import torch

rate = 32
t = np.arange(rate) / rate
signal = np.sin(2 * np.pi * 4 * t) + 0.3 * np.sin(2 * np.pi * 9 * t + 0.5)

spectrum = rfft(signal)
freqs = rfftfreq(signal.size, d=1 / rate)
power = np.abs(spectrum) ** 2 / signal.size
top = np.argsort(power)[::-1][:2]
print("peaks at", freqs[top], "Hz")
print(np.round(power[top], 3))

# keep the two strongest bins and transform back
kept = np.zeros_like(spectrum)
kept[top] = spectrum[top]
clean = irfft(kept, n=signal.size)
print("max reconstruction error:", np.abs(clean - signal).max() < 1e-12)

full = nf.fft(signal)
print(full.shape, np.allclose(full[: len(spectrum)], spectrum))
print(np.round(nf.fftshift(nf.fftfreq(8, d=0.5)), 3))
print(np.round(nf.ifft(nf.fft([1.0, 2.0, 3.0, 4.0])).real, 6))

image = np.outer(np.hanning(4), np.hanning(6))
print(np.round(np.abs(np.fft.fft2(image)), 4))
print(np.fft.rfftn(image).shape, np.fft.ifftshift(np.arange(6)))

# the frequency as a starting guess for a learnable sinusoid
freq = torch.tensor(float(freqs[top[0]]), dtype=torch.float64, requires_grad=True)
x = torch.from_numpy(t)
y = torch.from_numpy(signal)
loss = ((torch.sin(2 * torch.pi * freq * x) - y) ** 2).mean()
loss.backward()
print(round(loss.item(), 6), round(freq.grad.item(), 6))

try:
    nf.fft(signal, n=0)
except ValueError as e:
    print("ValueError:", e)
