# The real and imaginary parts of a conjugate view (x.conj() is lazy in PyTorch): their
# gradients reach x through the conjugation, zeros with their signs.
import torch

z = torch.tensor([1 + 2j, -3 + 0.5j, 0.25 - 1j], requires_grad=True)
c = z.conj()
print(c.is_conj(), c.imag)
im, re = c.imag, c.real
print(im.grad_fn.name(), im.grad_fn.next_functions[0][0].name())
print(re.grad_fn.name(), re.grad_fn.next_functions[0][0].name())

loss = (im * torch.tensor([1.0, -2.0, 0.5])).sum() + re.pow(2).sum()
loss.backward()
print(z.grad)

z.grad = None
torch.imag(z.conj()).sum().backward()
print(z.grad)

z.grad = None
w = z.conj_physical()  # a new tensor, not a view: its imag is plain
w.imag.sum().backward()
print(z.grad)

with torch.no_grad():
    print(z.conj().imag, z.conj().real)
