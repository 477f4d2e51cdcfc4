# torch.signal.windows: symmetric windows for filter design (sym=True, the
# default) and periodic ones for spectral analysis (sym=False).
import torch
from torch.signal import windows

print(windows.hann(8))
print(windows.hann(8, sym=False))
print(torch.allclose(windows.hann(8, sym=False), torch.hann_window(8)))
print(windows.hamming(7), windows.blackman(7))
print(windows.bartlett(6), windows.cosine(6))
print(windows.gaussian(9, std=2.0))
print(windows.exponential(9, tau=3.0))
print(windows.exponential(8, center=2.0, sym=False))
print(windows.kaiser(8, beta=8.0, dtype=torch.float64))
print(windows.nuttall(6))
print(windows.general_cosine(6, a=[0.5, 0.5]))
print(windows.general_hamming(6, alpha=0.6, sym=False))

# a learnable Gaussian window: its values carry a graph
g = windows.gaussian(5, std=1.0, requires_grad=True)
print(g)
(g * torch.arange(5.0)).sum().backward()

# design a 9-tap low-pass FIR filter: windowed sinc
n = torch.arange(9.0) - 4
cutoff = 0.25
h = 2 * cutoff * torch.sinc(2 * cutoff * n) * windows.hamming(9)
h = h / h.sum()
print(h)
print(f"DC gain {h.sum().item():.4f}")

try:
    windows.gaussian(4, std=-1.0)
except ValueError as e:
    print("ValueError:", e)
