# A random complex number, its logarithm, and autograd.grad of the real part.
import torch

torch.manual_seed(0)
c = torch.rand([], dtype=torch.complex64)
print(c)
c.requires_grad_()
out = c.log()
print(out)
print(out.real)
(g,) = torch.autograd.grad(out.real, c)
print(g)
print(torch.allclose(g, 1 / c.conj()))

n = torch.randn(2, 3, dtype=torch.cfloat)
print(n)
print(n.abs().mean())
m = torch.randn(5, dtype=torch.cdouble, requires_grad=True)
s = (m.exp() * m.sin()).abs().sum()
s.backward()
print(s)
print(m.grad)
