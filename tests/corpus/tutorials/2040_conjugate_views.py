# Conjugation is lazy in PyTorch: z.conj() is a view with the conjugate bit set. Checking
# the bit, resolving it, and seeing that changes in place go through to the original.
import torch

z = torch.tensor([1 + 2j, 3 - 4j, -0.5j], dtype=torch.complex64)
zc = z.conj()
print(zc, zc.is_conj(), z.is_conj(), torch.is_conj(zc))
print(zc._is_view(), zc._base is z, zc.data_ptr() == z.data_ptr())

# views of a conjugate view keep the bit; new tensors made from it do not
print(zc[1:].is_conj(), zc.detach().is_conj(), zc.clone().is_conj(), (zc * 2).is_conj())
print(z.conj().conj().is_conj(), torch.conj_physical(z).is_conj())

# the imaginary part of a conjugate view is a negative view
im = zc.imag
print(im, im.is_neg(), zc.real.is_neg(), z.imag.is_neg())
print(im.resolve_neg(), im.resolve_neg().is_neg())

r = zc.resolve_conj()
print(r, r.is_conj(), torch.view_as_real(r))
try:
    torch.view_as_real(zc)
except RuntimeError as e:
    print("view_as_real:", e)
try:
    zc.numpy()
except RuntimeError as e:
    print("numpy:", e)
try:
    im.numpy()
except RuntimeError as e:
    print("numpy:", e)

# one storage: a change through the view reaches z conjugated, and back
zc.mul_(2)
print(z)
zc[0] = 10 + 1j
print(z)
z.add_(1)
print(zc)
zc.imag[2] = 7.0
print(z, zc)

# the conjugate transpose is a conjugate view too
A = torch.tensor([[1 + 1j, 2], [0.5j, 3 - 1j]], dtype=torch.complex128)
print(A.mH.is_conj(), A.adjoint().is_conj(), A.mT.is_conj(), A.H.is_conj())
with torch.no_grad():
    A.mH[0, 1] = 4j
print(A)

# gradients flow through conj as through any operation
w = torch.tensor([1 + 2j, 3 - 1j], dtype=torch.complex128, requires_grad=True)
loss = (w * w.conj()).real.sum() + (w.conj() * 1j).imag.sum()
loss.backward()
print(w.grad)
print(w.conj().resolve_conj().grad_fn.name(), w.conj_physical().grad_fn.name())
x = torch.tensor([2.0, -1.0])
print(x.conj() is x, x.conj().is_conj(), x.is_neg())
