# Moving complex values between PyTorch and NumPy: arithmetic on the arrays, their
# real and imaginary parts, NumPy's complex functions, and back to a tensor.
import numpy as np
import torch

z = torch.tensor([1 + 2j, 3 - 4j], dtype=torch.complex128)
a = z.numpy()
print(a, a.dtype)
print(a * 2, a + 1j, a / (1 + 1j), a ** 2, 2 ** a)
print(a.real, a.imag, a.conj(), a.conjugate())
print(np.abs(a), np.angle(a), np.real(a), np.imag(a), np.conj(a))
print(np.exp(1j * np.pi), np.sqrt(-4 + 0j), np.abs(3 + 4j))
print(a.sum(), a.mean(), np.mean(a), a @ a)
print(a == np.array([1 + 2j, 3 + 4j]), a != 0)

phase = np.exp(1j * np.linspace(0, np.pi, 3))
print(np.round(phase.real, 4), np.round(phase.imag, 4))
print(torch.from_numpy(a * 1j))
print(torch.tensor(a ** 2))
print(torch.tensor([1.0, 2.0]).numpy() * 1j)

s = np.float64(2.0) * 1j
print(s, np.float32(1.5) + 1j)

try:
    print(a // 2)
except TypeError as e:
    print("TypeError:", e)
