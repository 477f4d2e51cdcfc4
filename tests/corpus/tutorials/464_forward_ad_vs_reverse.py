import torch
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)


def model(x):
    h = torch.tanh(x @ torch.ones(3, 4, dtype=torch.float64) * 0.5)
    return torch.softmax(h, dim=-1).log()


x = torch.randn(2, 3, dtype=torch.float64)
v = torch.randn(2, 3, dtype=torch.float64)

with fwAD.dual_level():
    out = model(fwAD.make_dual(x, v))
    jvp_fwd = fwAD.unpack_dual(out).tangent
print(jvp_fwd)

# reverse mode: the same column of the Jacobian through the double-backward trick
_, jvp_rev = torch.autograd.functional.jvp(model, x, v)
print(jvp_rev)
print(torch.allclose(jvp_fwd, jvp_rev))

# central differences along v
eps = 1e-6
print(torch.allclose(jvp_fwd, (model(x + eps * v) - model(x - eps * v)) / (2 * eps)))
