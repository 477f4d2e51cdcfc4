# Code written for complex and real tensors alike asks a tensor what it is before it
# takes parts of it: on a real tensor, real/conj hand the same tensor back.
import torch

torch.manual_seed(0)
w = torch.randn(4, requires_grad=True)

print("complex?", w.is_complex(), torch.is_complex(w))
print("floating point?", w.is_floating_point(), "signed?", w.is_signed())
print("bytes signed?", torch.tensor([1, 2], dtype=torch.uint8).is_signed())

part = w.real if not w.is_complex() else w.real * 0
print("real is the same tensor:", part is w, torch.real(w) is w)
print("conj too:", w.conj() is w, w.resolve_conj() is w, w.is_conj())

energy = (w.conj() * w).sum()
energy.backward()
print(energy)
print(w.grad)

try:
    print(w.imag)
except RuntimeError as err:
    print("imag:", err)
