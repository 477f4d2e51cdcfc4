# Complex numbers the way a tutorial introduces them: Python's own, then tensors of them,
# their parts, and what mixing them with real tensors gives.
import torch

a = 3 + 4j
print(a, type(a), a.real, a.imag, a.conjugate(), abs(a))
b = complex(1, -2)
print(a * b, a / b, a - b, b**2, complex("2.5-1j"))

z = torch.tensor([1 + 2j, -0.5 + 0.25j, 3j])
print(z)
print(z.dtype, z.is_complex(), z.is_floating_point())
print(z.real)
print(z.imag)
print(z.conj())
print(z.abs())
print(z.angle())

w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.cdouble)
print(w)
print(w.dtype, w.type())

x = torch.tensor([0.5, -1.5, 2.0])
print(x + 1j, (x * z).dtype)
print(x.double() * z)
print(torch.tensor(2.0) * z, z * 2, 1j * z)
print(torch.complex(x, -x))
print(torch.zeros(2, dtype=torch.complex64), torch.ones(2, 2, dtype=torch.cfloat))
print(torch.full((3,), 1 - 1j))
print(z == z.conj().conj(), (z - z.conj()) / 2j)
