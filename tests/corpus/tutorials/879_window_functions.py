# Window functions for spectral analysis: tapering a signal before a transform.
import torch

print(torch.hann_window(8))
print(torch.hann_window(8, periodic=False))
print(torch.hamming_window(10))
print(torch.hamming_window(5, False, 0.5, 0.5))
print(torch.blackman_window(12))
print(torch.blackman_window(5, periodic=False, dtype=torch.float64))
print(torch.bartlett_window(9))
print(torch.bartlett_window(6, periodic=False))
print(torch.kaiser_window(10))
print(torch.kaiser_window(7, False, 6.0))
print(torch.kaiser_window(6, True, 14.0, dtype=torch.double))
print(torch.hann_window(1), torch.hann_window(0))

# taper a noisy frame, and differentiate through the windowed energy
torch.manual_seed(0)
frame = torch.randn(16, requires_grad=True)
window = torch.hann_window(16)
tapered = frame * window
energy = (tapered ** 2).sum()
print(energy)
energy.backward()
print(frame.grad)

# a learnable window starts as a leaf
w = torch.hamming_window(6, requires_grad=True)
print(w.requires_grad, w.is_leaf, w.grad_fn)
print((w * torch.arange(6.0)).sum())

# overlapping frames with a periodic Hann window sum to a constant
hop = 4
total = torch.zeros(20)
for start in range(0, 13, hop):
    total[start:start + 8] += torch.hann_window(8)
print(total[4:16])

for bad in (lambda: torch.hann_window(-1), lambda: torch.hann_window(4, dtype=torch.int64)):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
try:
    torch.kaiser_window(8, beta=5.0)
except TypeError as e:
    print("TypeError:", str(e).splitlines()[0])
