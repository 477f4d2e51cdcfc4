import torch

# Selecting between two complex signals with a real-valued mask.
z = torch.tensor([3 + 4j, 7 - 24j, 0j, 1 + 2j])

# A numpy-style complex sign: the sign of the real part, or of the imaginary part
# where the real part is zero.
csign = torch.where(z.real != 0, torch.sign(z.real) + 0.0j, torch.sign(z.imag) + 0.0j)
print(csign)
print(torch.sgn(z))

# Gradients through the selection, with complex leaves.
a = torch.tensor([1 + 1j, 2 - 1j, -3j], dtype=torch.complex128, requires_grad=True)
b = torch.tensor([0.5 + 2j, -1.0 + 0j, 2j], dtype=torch.complex128, requires_grad=True)
keep = torch.tensor([True, False, True])
mixed = torch.where(keep, a * a, b.conj())
print(mixed)
loss = (mixed * torch.tensor([1j, 2, 3 - 1j], dtype=torch.complex128)).abs().sum()
loss.backward()
print(a.grad)
print(b.grad)

# A number on one side takes the complex dtype.
print(torch.where(keep, a.detach(), 0))
print(torch.where(keep, 1j, b.detach()))

# A real tensor that requires grad selected into a complex result: autograd refuses
# its complex gradient.
r = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
out = torch.where(keep, a, r)
print(out.dtype)
try:
    out.abs().sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# Converting it first gives it the real part of the gradient.
a.grad = None
out = torch.where(keep, a, r.to(torch.complex128))
out.abs().sum().backward()
print(r.grad)
