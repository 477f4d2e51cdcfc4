# Complex products whose gradient's imaginary part cancels exactly: PyTorch's rules multiply by
# the conjugate (grad * conj(other), grad @ other^H), so such a part prints as +0.j, not -0.j.
import torch

p = torch.tensor([2 + 0j, 1 + 3j, -1 - 1j], requires_grad=True)
x = torch.tensor([1 + 1j, 2 - 1j, 3 + 3j])
z = p * x
(z.real + z.imag).sum().backward()
print(p.grad)

# the same with the constant on the left, and both requiring grad
a = torch.tensor([1 + 1j, 2 + 2j], dtype=torch.complex128, requires_grad=True)
b = torch.tensor([1 - 1j, 4 + 0j], dtype=torch.complex128, requires_grad=True)
w = a * b
(w.real - w.imag).sum().backward()
print(a.grad, b.grad)

# matrix @ vector (mv), vector @ vector (dot), vector @ matrix, matrix @ matrix (mm)
m = torch.tensor([[1 + 1j, 2 + 0j, 0 + 1j], [3 + 0j, 1 - 1j, 2 + 2j]], requires_grad=True)
v = torch.tensor([1 + 1j, 2 + 1j, 3 + 1j], requires_grad=True)
r = m @ v
(r.real + r.imag).sum().backward()
print(m.grad)
print(v.grad)
u = torch.tensor([1 + 1j, 1 - 1j, 2 + 0j], requires_grad=True)
d = u @ torch.tensor([1 + 1j, 1 + 1j, 1 + 1j])
(d.real + d.imag).backward()
print(u.grad)
n = torch.tensor([[1 + 1j, 0 + 2j], [1 - 1j, 1 + 0j], [2 + 2j, 1 + 1j]])
q = torch.tensor([1 + 1j, 1 + 1j, 2 + 0j], requires_grad=True)
s = q @ n
(s.real + s.imag).sum().backward()
print(q.grad)
k = torch.tensor([[1 + 1j, 2 + 2j]], requires_grad=True)
l = torch.tensor([[1 + 1j, 1 - 1j], [3 + 3j, 0 + 1j]], requires_grad=True)
o = k @ l
(o.real + o.imag).sum().backward()
print(k.grad)
print(l.grad)

# a real weight times a complex input: the real part of the product, as PyTorch's
wr = torch.tensor([0.5, -2.0], requires_grad=True)
c = torch.tensor([1 + 1j, 2 - 2j])
(wr * c).abs().sum().backward()
print(wr.grad)

# second order through the conjugate product
t = torch.tensor([1 + 2j], dtype=torch.complex128, requires_grad=True)
f = (t * t.conj() * t).real.sum()
(gt,) = torch.autograd.grad(f, t, create_graph=True)
print(gt)
gt.real.sum().backward()
print(t.grad)

# a real operand (a number, a real tensor) is its own conjugate in PyTorch's rule: the
# zero imaginary parts of these gradients keep the sign PyTorch gives them
for other in (-2, -2.0, torch.tensor([-2.0, 0.5]), torch.tensor([-2.0, 0.5], requires_grad=True)):
    zz = torch.tensor([2 + 0j, -3 + 0j], requires_grad=True)
    (zz * other).abs().sum().backward()
    print(torch.view_as_real(zz.grad), zz.grad)
