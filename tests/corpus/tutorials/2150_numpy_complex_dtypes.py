# Building complex arrays in NumPy and handing them to PyTorch: dtype=np.complex128 /
# np.complex64, the complex scalar an index gives, its parts, and the way back.
import numpy as np
import torch

signal = np.array([1 + 2j, 3 - 1j, -0.5 + 0.25j], dtype=np.complex128)
print(signal, signal.dtype)
print(repr(signal))

first = signal[0]
print(type(first) is np.complex128, isinstance(first, np.complex128), first)
print(repr(first), first.real, first.imag, first.conjugate(), abs(first))
print(first * 2, first + 1, first * first, -first, first**2, complex(first))

small = np.array([1, 2, 3], dtype=np.complex64)
print(repr(small), small.dtype, repr(small[1]))
print(np.zeros(2, dtype=complex), np.ones(2, dtype=np.cdouble).dtype, np.full(2, 1j))
print(np.array([0.5, 1.5]).astype(np.complex64), np.array([2, 3]).astype(complex))
print(np.complex64(3), repr(np.complex128(1.5 - 2j)), np.complex128())

t = torch.tensor(signal)
print(t)
print(torch.from_numpy(small))
print(torch.as_tensor(small * 1j).dtype)
print(t.numpy().dtype, torch.view_as_real(t))

print(np.abs(signal), np.angle(signal), np.conj(signal))
print(np.real(first), np.imag(first), np.round(np.angle(small[1] + 1j), 4))

edited = signal.copy()
edited[1] = 5 + 5j
print(edited, signal[1])

print(np.complex128(2) * torch.tensor([1.0, 2.0]))
print(torch.tensor([1.0, 2.0], dtype=torch.float64) + np.complex128(0.5j))

try:
    np.float64(1j)
except TypeError as e:
    print("TypeError:", e)
