# Forward-mode derivatives of the smooth ReLU variants (SiLU / swish and Mish): a
# Jacobian-vector product with torch.func.jvp, the same with forward_ad's dual numbers, and a
# forward-over-reverse Hessian diagonal, printed to 8 decimals.
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)
torch.set_printoptions(precision=8)
x = torch.randn(37) * 3
v = torch.randn(37)

_, jv_silu = torch.func.jvp(F.silu, (x,), (v,))
_, jv_mish = torch.func.jvp(F.mish, (x,), (v,))
print(jv_silu[:8])
print(jv_mish[:8])

with fwAD.dual_level():
    dual = fwAD.make_dual(x, v)
    print(fwAD.unpack_dual(F.mish(dual)).tangent[:8])
    print(fwAD.unpack_dual(torch.nn.SiLU()(dual)).tangent[:8])

h = torch.func.hessian(lambda w: F.mish(w).sum())(x[:6])
print(h.diagonal())
