import torch
import torch.autograd.forward_ad as fwAD

primal = torch.tensor([0.5, 1.0, 2.0])
tangent = torch.tensor([1.0, 0.0, 0.0])


def fn(x, y):
    return x ** 2 + y ** 2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input, torch.ones(3))
    jvp = fwAD.unpack_dual(dual_output).tangent
    p = fwAD.unpack_dual(dual_output).primal
print(jvp)
print(p)

with fwAD.dual_level():
    d = fwAD.make_dual(primal, torch.ones(3))
    out = torch.sin(d) * d
    value, tan = fwAD.unpack_dual(out)
print(value)
print(tan)
print(torch.cos(primal) * primal + torch.sin(primal))
