import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([1.0, 2.0])
t = torch.tensor([1.0, 1.0], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    print(d)
    out = torch.exp(d * 3)
    tangent = fwAD.unpack_dual(out).tangent
    print(out)
    print(tangent)
    tangent.sum().backward()
print(t.grad)
