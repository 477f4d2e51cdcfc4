# Forward-mode Jacobians of small functions that scale by Python floats.
# torch.func's forward transforms give a 0-d tangent scaled by a float the
# double-precision dtype of the number; the values printed stay the same.
import torch
from torch.func import jacfwd, jvp, hessian

x = torch.tensor([1.0, 2.0, 3.0])


def energy(t):
    return 0.5 * (t ** 2).sum()


def pendulum(t):
    return torch.stack([t[1] * 2.0, -torch.sin(t[0]) * 9.81])


def scaled(t):
    return t * 3.0


print(jacfwd(energy)(x))
print(jacfwd(pendulum)(x))
print(jacfwd(scaled)(x))
print(jacfwd(lambda t: t[1] * 3)(x))
print(jacfwd(lambda t: 3.0 - t[1])(x))
print(jacfwd(lambda t: t[0] ** 2.0)(x))
out, tangent = jvp(lambda t: (t.sum() / 3.0).exp(), (x,), (torch.ones(3),))
print(out, tangent.dtype)
print(hessian(energy)(x))
print(jacfwd(jacfwd(lambda t: t[0] * t[1] * 0.5))(x).dtype)

import torch.autograd.forward_ad as fwAD

with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor(2.0), torch.tensor(1.0))
    print(fwAD.unpack_dual(d * 3.0).tangent)
print(torch.autograd.functional.jacobian(energy, x, strategy="forward-mode", vectorize=True))
