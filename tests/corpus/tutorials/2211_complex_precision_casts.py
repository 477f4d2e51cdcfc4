# Moving complex tensors between single and double precision with the short cast methods
# (.cfloat() / .cdouble()), keeping the graph: the gradient comes back in the leaf's dtype.
import torch

z = torch.tensor([1 + 2j, 3 - 1j, -0.5 + 0.25j], dtype=torch.complex64, requires_grad=True)
wide = z.cdouble()
print(wide)
energy = (wide * wide.conj()).real.sum()
print(energy)
energy.backward()
print(z.grad)

w = torch.tensor([[0.5 - 1j, 2j], [1.5 + 0j, -1 + 1j]], dtype=torch.complex128, requires_grad=True)
narrow = w.cfloat()
print(narrow.dtype, narrow.grad_fn.name())
(narrow.abs() ** 2).sum().backward()
print(w.grad)

r = torch.tensor([0.25, -2.0], requires_grad=True)
print(r.cdouble(), r.cfloat().dtype)
print(torch.arange(3).cfloat())
print(w.detach().cfloat().cdouble().dtype)
