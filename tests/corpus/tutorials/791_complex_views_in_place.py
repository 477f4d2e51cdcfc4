# The parts of a complex tensor are views: changing them changes the tensor, as do changes
# through view_as_real; in-place arithmetic keeps the dtype.
import torch

torch.manual_seed(0)
x = torch.randn(2, 2, dtype=torch.cfloat)
print(x)
x.real.mul_(2)
print(x)
x.imag[0] = 5
print(x)
pairs = torch.view_as_real(x)
pairs[1, 1, 0] = 100
print(x)
x += 1j
x *= 2
print(x, x.dtype)
x.zero_()
print(x)
c = torch.zeros(3, dtype=torch.cdouble)
c.copy_(torch.tensor([1.0, 2.0, 3.0]))
c[2] = 1 - 1j
print(c)
print(c.tolist(), c.sum().item(), complex(c[0]))
for v in c:
    print(v.item().real, v.item().imag)
