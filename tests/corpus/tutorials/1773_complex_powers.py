# Complex powers: tensor ** tensor, a number to a complex tensor, a real tensor to a
# complex number, and their gradients.
import torch

z = torch.tensor([1 + 1j, 2 - 1j, -0.5j], dtype=torch.complex128, requires_grad=True)
w = torch.tensor([0.5 + 0.5j, -1 + 2j, 2], dtype=torch.complex128, requires_grad=True)
x = torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64, requires_grad=True)

p = z**w
print(p)
print(torch.pow(z, w))
print(2**z, 1.5**w)
print(x ** (1 + 1j))
print((1j) ** x)
print(torch.pow(3, z))

loss = (z**w).abs().sum() + (2**z).real.sum() + (x ** (0.5 - 1j)).imag.sum()
loss.backward()
print(z.grad)
print(w.grad)
print(x.grad)

c = torch.tensor([0j, 1 + 1j], dtype=torch.complex128)
print(c ** torch.tensor([1 + 1j, 0j], dtype=torch.complex128))
print(torch.tensor([1, 2]) ** 1j)
