# torch.nextafter steps a value one float towards another: its derivative is 1
# in the value, except where the two are equal (no step: 0), and 0 in the
# direction, in reverse mode and in forward mode alike.
import torch
from torch.func import jacfwd, jvp
import torch.autograd.forward_ad as fwAD

x = torch.tensor([1.0, 2.0, 3.0])
target = torch.tensor([2.0, 1.0, 3.0])
print(jacfwd(lambda t: torch.nextafter(t, target))(x))
print(jacfwd(lambda t: torch.nextafter(target, t))(x))
print(jvp(lambda t: t.nextafter(target).sum() + t.sum(), (x,), (torch.ones(3),)))
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([-1.0, 1.0, -1.0]))
    print(fwAD.unpack_dual(torch.nextafter(d, target)).tangent)
w = x.clone().requires_grad_()
torch.nextafter(w, target).backward(torch.tensor([2.0, -1.0, float("inf")]))
print(w.grad)
