# Casting a complex tensor to a real dtype keeps the real parts (PyTorch warns once that
# the imaginary parts are discarded); the gradient flows back as a complex tensor.
import torch

z = torch.tensor([3 + 4j, -1j, 2.5 - 0.5j], requires_grad=True)
r = z.to(torch.float32)
print(r)
(r * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(z.grad)

w = torch.tensor([1.5 + 2j, -2.5 - 1j], dtype=torch.complex128)
print(w.float(), w.double())
print(w.to(torch.int64), w.long(), w.int())
print(w.to(torch.float16), w.half())

v = torch.tensor([[1 + 1j, 2 - 1j]], dtype=torch.complex128, requires_grad=True)
u = v[0].double() * v[0].imag
u.sum().backward()
print(v.grad)
